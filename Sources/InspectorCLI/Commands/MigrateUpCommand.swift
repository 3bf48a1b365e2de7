import CaseStore
import CommandLineKit

/// `inspector migrate up [--to V] [--dry-run]`: apply pending migrations, each in its own
/// transaction (docs/operations.md "migrate"). Drift or a newer database refuses (exit 65).
struct MigrateUpCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "up",
    abstract: "Apply pending migrations (all, or up to --to).")

  let to = Option<MigrationVersion?>("to", valueName: "version", help: "Stop after this version.")
  let dryRun = Flag("dry-run", help: "Show what would be applied; change nothing.")

  var declarations: [any CommandDeclaration] { [to, dryRun] }

  func run(_ context: CommandContext) throws -> String {
    let target = try context[to]?.value
    try context.requireDatabaseFile()
    let dryRun = context[self.dryRun]
    let (applied, version, markRestored) = try CaseFile.migrate(
      at: context.databasePath, upTo: target, dryRun: dryRun, busyTimeout: context.busyTimeout)
    return MigrationPresenter.renderUp(
      applied.map { (version: $0.version, name: $0.name) }, version: version, dryRun: dryRun,
      applicationIDRestored: markRestored, context)
  }
}
