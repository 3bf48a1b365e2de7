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
    return CaseFileReportPresenter.render(
      CaseFileReportPresenter.Restored(
        path: context.databasePath, source: source, summary: summary, dryRun: dryRun), context)
  }
}
