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
    let mark =
      markRestored
      ? (dryRun ? "Would restore" : "Restored")
        + " the application_id \(CaseDatabase.applicationID), which a copy of the file lost"
        + " (migration 0004 is recorded)."
      : nil
    // JSON and CSV keep their shape (the migrations applied): the note goes to stderr.
    if let mark, context.format != .table {
      context.writeToStandardError("inspector: note: \(mark)\n")
    }
    let listing = Render.list(
      context,
      json: applied.map {
        [
          ("version", .integer(Int64($0.version))), ("name", .string($0.name)),
          ("state", .string(dryRun ? "pending" : "applied")),
        ]
      },
      csvHeader: ["version", "name", "state"],
      csv: applied.map { ["\($0.version)", $0.name, dryRun ? "pending" : "applied"] }
    ) {
      if applied.isEmpty { return "Up to date (schema version \(version))." }
      let verb = dryRun ? "Would apply" : "Applied"
      return applied.map { "\(verb) \($0.version) \($0.name)" }.joined(separator: "\n")
        + (dryRun ? "" : "\nSchema version \(version).")
    }
    guard let mark, context.format == .table else { return listing }
    return listing + mark + "\n"
  }
}
