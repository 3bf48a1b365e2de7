import CaseStore

/// The report of `inspector import`: per kind of record, how many were added, updated, found
/// unchanged and skipped. JSON: `{"dry_run", "fruits": {...}, "suspects": {...},
/// "incidents": {...}}`; CSV and NDJSON: one row per kind (`records`, the counts, `dry_run`).
enum ImportPresenter {
  static let csvHeader = ["records", "added", "updated", "unchanged", "skipped", "dry_run"]

  /// One kind's counts, as NDJSON and CSV print them.
  struct Row: Sendable {
    let records: JSONObjectWriter.Key
    let counts: ImportReport.Counts
    let dryRun: Bool
  }

  /// The one JSON writer of the report (`--format json`).
  static let json = JSONRecordWriter<ImportReport> { report, object, output in
    object.member("dry_run", report.dryRun, to: &output)
    for row in rows(report) {
      object.member(row.records, row.counts, countsJSON, to: &output)
    }
  }

  /// The one JSON writer of a kind's row (`--format ndjson`).
  static let rowJSON = JSONRecordWriter<Row> { row, object, output in
    object.member("records", "\(row.records.text)", to: &output)
    countsJSON.writeMembers(row.counts, &object, &output)
    object.member("dry_run", row.dryRun, to: &output)
  }

  /// A kind's counts: `added`, `updated`, `unchanged`, `skipped`.
  static let countsJSON = JSONRecordWriter<ImportReport.Counts> { counts, object, output in
    object.member("added", counts.added, to: &output)
    object.member("updated", counts.updated, to: &output)
    object.member("unchanged", counts.unchanged, to: &output)
    object.member("skipped", counts.skipped, to: &output)
  }

  /// The report in the context's format.
  static func render(_ report: ImportReport, _ context: CommandContext) -> String {
    let rows = rows(report)
    switch context.format {
    case .json:
      return json.document(report, pretty: true)
    case .ndjson, .csv:
      return Render.list(
        rows, context, json: rowJSON, csvHeader: csvHeader,
        csv: {
          [
            "\($0.records.text)", "\($0.counts.added)", "\($0.counts.updated)",
            "\($0.counts.unchanged)",
            "\($0.counts.skipped)", "\($0.dryRun)",
          ]
        }, table: { "" })
    case .table:
      let lines = rows.map { row in
        "  \(row.records.text): \(row.counts.added) added, \(row.counts.updated) updated, "
          + "\(row.counts.unchanged) unchanged, \(row.counts.skipped) skipped"
      }
      let title =
        report.dryRun ? "Dry run: nothing was stored. The import would make:" : "Imported:"
      return ([title] + lines).joined(separator: "\n") + "\n"
    }
  }

  /// The report's rows: fruits, suspects, incidents.
  private static func rows(_ report: ImportReport) -> [Row] {
    [
      Row(records: "fruits", counts: report.fruits, dryRun: report.dryRun),
      Row(records: "suspects", counts: report.suspects, dryRun: report.dryRun),
      Row(records: "incidents", counts: report.incidents, dryRun: report.dryRun),
    ]
  }
}
