import CaseStore

/// The report of `inspector check` (docs/output-formats.md "check"): a JSON object (`ok`,
/// `integrity_check`, `foreign_key_check`, `migrations`, `findings`, `skipped`), CSV rows of
/// findings, or one line per check followed by a table of the findings.
enum CheckPresenter {
  static let csvHeader = ["severity", "check", "table", "row", "finding", "hint"]

  /// The report in the chosen format: JSON object (`ok`, `integrity_check`,
  /// `foreign_key_check`, `migrations`, `findings`), CSV rows of findings, or the table text.
  static func render(_ report: CaseFile.CheckReport, _ context: CommandContext) -> String {
    switch context.format {
    case .json, .ndjson:
      return json.document(report, pretty: context.format == .json)
    case .csv:
      return CSVWriter.document(header: csvHeader, rows: report.findings.map(csvFields))
    case .table:
      return table(report)
    }
  }

  /// The one JSON writer of the report (`check`'s document; NDJSON prints it on one line).
  static let json = JSONRecordWriter<CaseFile.CheckReport> { report, object, output in
    object.member("ok", report.isHealthy, to: &output)
    object.member("integrity_check", strings: report.integrity, to: &output)
    object.member(
      "foreign_key_check", strings: report.foreignKeys.map(\.description), to: &output)
    object.member("migrations", report.migrations, MigrationPresenter.statusJSON, to: &output)
    object.member("findings", report.findings, findingJSON, to: &output)
    object.member("skipped", strings: report.skipped.map(\.rawValue), to: &output)
  }

  /// The one JSON writer of a finding: `severity`, `check`, `table`, `row`, `message`, `hint`
  /// (`check`'s findings, `backup`'s faults, `restore`'s accepted faults).
  static let findingJSON = JSONRecordWriter<CheckFinding> { finding, object, output in
    object.member("severity", finding.severity.rawValue, to: &output)
    object.member("check", finding.kind.rawValue, to: &output)
    object.member("table", finding.table, to: &output)
    object.member("row", finding.row, to: &output)
    object.member("message", finding.message, to: &output)
    object.member("hint", finding.hint, to: &output)
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
