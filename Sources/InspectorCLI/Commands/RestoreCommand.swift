import CaseStore
import CommandLineKit

/// `inspector restore SRC [--force]`: replace the database with a verified backup, atomically
/// (README "A short tour"); refuses files that are not case databases, damaged or newer backups,
/// and asks for `--force` before replacing a database that holds case data.
struct RestoreCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "restore",
    abstract: "Replace the database with a verified backup, atomically.")

  let src = Argument<FilePath>("src", help: "The backup file to restore.")
  let force = Flag("force", help: "Replace a database that holds case data.")

  var declarations: [any CommandDeclaration] { [src, force] }

  func run(_ context: CommandContext) throws -> String {
    let source = try context[src].path
    let summary = try CaseFile.restore(
      from: source, to: context.databasePath, force: context[force],
      busyTimeout: context.busyTimeout)
    let json: [(String, JSONValue)] = [
      ("path", .string(context.databasePath)), ("source", .string(source)),
      ("schema_version", .integer(Int64(summary.schemaVersion))),
      ("suspects", .integer(Int64(summary.suspects))), ("created", .bool(summary.created)),
      ("migration_needed", .bool(summary.migrationNeeded)),
    ]
    return Render.record(
      context, json: json, csvHeader: json.map(\.0),
      csv: [
        context.databasePath, source, "\(summary.schemaVersion)", "\(summary.suspects)",
        "\(summary.created)", "\(summary.migrationNeeded)",
      ]
    ) {
      "Restored \(context.databasePath) from \(source): schema version"
        + " \(summary.schemaVersion), \(summary.suspects) suspect(s)."
        + (summary.migrationNeeded
          ? " It predates this inspector's schema (version"
            + " \(CaseDatabase.migrator.latestVersion)): run 'inspector migrate up' before using it."
          : "")
    }
  }
}
