import CaseStore
import CommandLineKit

/// `inspector migrate status`: each migration's version, name, state (`applied`, `pending`,
/// `drift`, or `unknown` for a newer database) and time applied (docs/operations.md "migrate").
struct MigrateStatusCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "status", abstract: "List applied and pending migrations (drift is marked).")

  var declarations: [any CommandDeclaration] { [] }

  func run(_ context: CommandContext) throws -> String {
    try context.requireDatabaseFile()
    let (statuses, differences) = try CaseFile.migrationStatus(
      at: context.databasePath, busyTimeout: context.busyTimeout)
    // The recorded versions say nothing of a table another tool rebuilt: say so on stderr.
    if !differences.isEmpty {
      context.writeToStandardError(
        "warning: the schema differs from what the applied migrations create in "
          + "\(differences.count) place(s), e.g. \(differences[0].message); "
          + "see 'inspector check'\n")
    }
    return MigrationPresenter.renderStatus(statuses, context)
  }
}
