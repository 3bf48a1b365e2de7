import CaseStore
import CommandLineKit

/// `inspector check`: every check of ``CaseFile/check(_:)`` (integrity, foreign keys,
/// migrations, `application_id`, the schema against the migrations', derived columns,
/// duplicates, domain values) plus leftover files beside the database. Lists every finding in
/// the chosen format on stdout; exits 65 when any is a fault (docs/operations.md "check").
struct CheckCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "check",
    abstract: "Check integrity, foreign keys, migrations, schema and the case's own rules.",
    discussion: """
      Every finding is listed (severity, check, table, row, what is wrong, a hint); the exit
      status is 65 when any finding is a fault. Notes (tables of other tools, keys of other
      clients' rows that inspector has not folded yet) do not fail the check.
      """)

  var declarations: [any CommandDeclaration] { [] }

  func run(_ context: CommandContext) throws -> String {
    try context.requireDatabaseFile()
    let report = try CaseFile.check(at: context.databasePath, busyTimeout: context.busyTimeout)
    let output = CheckPresenter.render(report, context)
    let faults = report.faults
    guard faults.isEmpty else {
      throw CommandFailure(
        "check found \(faults.count) fault(s); the first: \(faults[0].summary)",
        hint: faults[0].hint, exitCode: .dataError, standardOutput: output)
    }
    return output
  }
}
