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

  static let csvHeader = ["severity", "check", "table", "row", "finding", "hint"]

  var declarations: [any CommandDeclaration] { [] }

  func run(_ context: CommandContext) throws -> String {
    try context.requireDatabaseFile()
    let report = try CaseFile.check(at: context.databasePath, busyTimeout: context.busyTimeout)
    let output = Self.render(report, context)
    let faults = report.faults
    guard faults.isEmpty else {
      throw CommandFailure(
        "check found \(faults.count) fault(s); the first: \(faults[0].summary)",
        hint: faults[0].hint, exitCode: .dataError, standardOutput: output)
    }
    return output
  }

  /// The report in the chosen format: JSON object (`ok`, `integrity_check`,
  /// `foreign_key_check`, `migrations`, `findings`), CSV rows of findings, or the table text.
  static func render(_ report: CaseFile.CheckReport, _ context: CommandContext) -> String {
    switch context.format {
    case .json, .ndjson:
      let object: [(String, JSONValue)] = [
        ("ok", .bool(report.isHealthy)),
        ("integrity_check", .array(report.integrity.map(JSONValue.string))),
        ("foreign_key_check", .array(report.foreignKeys.map { .string($0.description) })),
        ("migrations", .array(report.migrations.map { .object(MigrateStatusCommand.json($0)) })),
        ("findings", .array(report.findings.map { .object(json($0)) })),
        ("skipped", .array(report.skipped.map { .string($0.rawValue) })),
      ]
      return JSONValue.object(object).serialized(pretty: context.format == .json) + "\n"
    case .csv:
      return CSVWriter.document(header: csvHeader, rows: report.findings.map(csvFields))
    case .table:
      return table(report)
    }
  }

  static func json(_ finding: CheckFinding) -> [(String, JSONValue)] {
    [
      ("severity", .string(finding.severity.rawValue)), ("check", .string(finding.kind.rawValue)),
      ("table", JSONValue(finding.table)), ("row", JSONValue(finding.row)),
      ("message", .string(finding.message)), ("hint", JSONValue(finding.hint)),
    ]
  }

  static func csvFields(_ finding: CheckFinding) -> [String?] {
    [
      finding.severity.rawValue, finding.kind.rawValue, finding.table, finding.row,
      finding.message, finding.hint,
    ]
  }

  /// One line per check, then a table of the findings.
  static func table(_ report: CaseFile.CheckReport) -> String {
    func verdict(_ kinds: [CheckFinding.Kind], ok: String = "ok") -> String {
      let faults = report.faults.filter { kinds.contains($0.kind) }.count
      if faults > 0 { return "\(faults) fault(s)" }
      let skipped = kinds.filter(report.skipped.contains)
      if skipped.isEmpty { return ok }
      return skipped.count == kinds.count
        ? "skipped (inspector migrate up)"
        : "\(ok); " + skipped.map(\.rawValue).joined(separator: ", ")
          + " skipped (inspector migrate up)"
    }
    let version = report.migrations.last { $0.state == .applied }?.version ?? 0
    var text = SuspectPresenter.fields([
      ("integrity_check", verdict([.integrity])),
      ("foreign_key_check", verdict([.foreignKey])),
      ("migrations", verdict([.migration], ok: "ok (version \(version))")),
      ("schema", verdict([.schema, .applicationID])),
      ("case rules", verdict([.derivedColumn, .duplicate, .domain])),
      ("history", verdict([.history])),
      ("files", verdict([.file])),
    ]).joined(separator: "\n")
    if !report.findings.isEmpty {
      var findings = TextTable(
        columns: [.init("SEVERITY"), .init("CHECK"), .init("WHERE"), .init("FINDING")])
      findings.rows = report.findings.map { finding in
        let place = [finding.table, finding.row].compactMap { $0 }.joined(separator: " ")
        let hint = finding.hint.map { " (hint: \($0))" } ?? ""
        return [finding.severity.rawValue, finding.kind.rawValue, place, finding.message + hint]
      }
      text += "\n\n" + findings.render()
    }
    return Render.withNewline(text)
  }
}
