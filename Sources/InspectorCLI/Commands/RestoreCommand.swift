import CaseStore
import CommandLineKit

/// `inspector restore SRC [--force] [--accept-faults] [--dry-run]`: replace the database with a
/// verified backup, atomically (docs/operations.md "restore"); refuses files that are not case
/// databases, damaged or newer backups, asks for `--force` before replacing a database that
/// holds case data, and for `--accept-faults` before restoring a case file with faults
/// (docs/operations.md "restore").
struct RestoreCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "restore",
    abstract: "Replace the database with a verified backup, atomically.")

  let src = Argument<FilePath>("src", help: "The backup file to restore.")
  let force = Flag("force", help: "Replace a database that holds case data.")
  let acceptFaults = Flag(
    "accept-faults",
    help: "Restore a case file whose rows break the case's rules or whose schema differs,"
      + " as it is (never a damaged or foreign file).")
  let dryRun = Flag("dry-run", help: "Run every check and say what would happen; change nothing.")

  var declarations: [any CommandDeclaration] { [src, force, acceptFaults, dryRun] }

  func run(_ context: CommandContext) throws -> String {
    let source = try context[src].path
    let dryRun = context[self.dryRun]
    let summary = try CaseFile.restore(
      from: source, to: context.databasePath, force: context[force],
      acceptFaults: context[acceptFaults], dryRun: dryRun, busyTimeout: context.busyTimeout)
    let accepted = summary.acceptedFaults
    let json: [(String, JSONValue)] = [
      ("path", .string(context.databasePath)), ("source", .string(source)),
      ("schema_version", .integer(Int64(summary.schemaVersion))),
      ("suspects", .integer(Int64(summary.suspects))), ("created", .bool(summary.created)),
      ("migration_needed", .bool(summary.migrationNeeded)), ("dry_run", .bool(dryRun)),
      ("accepted_faults", .array(accepted.map { .object(CheckCommand.json($0)) })),
    ]
    return Render.record(
      context, json: json, csvHeader: json.map(\.0),
      csv: [
        context.databasePath, source, "\(summary.schemaVersion)", "\(summary.suspects)",
        "\(summary.created)", "\(summary.migrationNeeded)", "\(dryRun)", "\(accepted.count)",
      ]
    ) {
      (dryRun ? "Would restore" : "Restored")
        + " \(context.databasePath) from \(source): schema version"
        + " \(summary.schemaVersion), \(summary.suspects) suspect(s)."
        + (accepted.isEmpty
          ? ""
          : " With \(accepted.count) fault(s) accepted ('inspector check' lists them): "
            + accepted.prefix(3).map(\.summary).joined(separator: "; ") + ".")
        + (summary.migrationNeeded
          ? " It predates this inspector's schema (version"
            + " \(CaseDatabase.migrator.latestVersion)): run 'inspector migrate up' before using it."
          : "")
    }
  }
}
