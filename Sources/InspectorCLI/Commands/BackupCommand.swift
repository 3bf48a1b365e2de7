import CaseStore
import CommandLineKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `inspector backup DEST`: a consistent online copy through SQLite's backup API, safe while
/// others write; one self-contained file, mode 0600, never half-written (docs/operations.md
/// "backup").
/// A copy that `restore` would refuse as it is is kept and the command exits 65 naming its
/// faults (docs/operations.md "What restores").
struct BackupCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "backup",
    abstract: "Copy the database to DEST while it stays in use (one self-contained file).")

  let dest = Argument<FilePath>("dest", help: "The backup file to write (replaced if it exists).")
  let verify = Option<CaseFile.BackupVerification?>(
    "verify", valueName: "check",
    help: "How the copy is checked before it replaces DEST: quick_check (quick, the default),"
      + " integrity_check (full), or not at all.")

  var declarations: [any CommandDeclaration] { [dest, verify] }

  func run(_ context: CommandContext) throws -> String {
    let destination = try context[dest].path
    try context.requireDatabaseFile()
    let file = try context.outputFile(destination, writing: "a backup")
    let showProgress = OutputStyle.isTerminal(fileDescriptor: 2)
    let summary: CaseFile.BackupSummary
    do {
      summary = try Interruption.during {
        try CaseFile.backup(
          at: context.databasePath, to: file, busyTimeout: context.busyTimeout,
          verify: try context[verify] ?? .quick
        ) { remaining, total in
          try Interruption.check("the backup")
          guard showProgress, total > 0 else { return }
          context.writeToStandardError(
            CaseFileReportPresenter.progressLine(done: total - remaining, total: total))
        }
      }
    } catch let error as CaseFileError {
      // Thrown only once the copy is in place: no restore would take it, even accepting faults.
      let failure = CommandFailure.from(error)
      throw CommandFailure(
        failure.message,
        hint: "\(destination) was written, but 'inspector restore' refuses it as it is",
        exitCode: failure.exitCode)
    }
    if showProgress { context.writeToStandardError("\n") }
    let faults = summary.faults
    let output = CaseFileReportPresenter.render(summary, destination: destination, context)
    guard faults.isEmpty else {
      let error = CaseFileError.faulted(destination, faults: faults.map(\.summary))
      throw CommandFailure(
        error.description,
        hint: "the copy is kept (the database has the same faults: 'inspector check' lists"
          + " them); 'inspector restore \(destination) --accept-faults' restores it as it is",
        exitCode: .dataError, standardOutput: output)
    }
    return output
  }
}
