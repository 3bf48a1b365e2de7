import CaseStore

/// The report of `inspector import`: per kind of record, how many were added, updated, found
/// unchanged and skipped. JSON: `{"dry_run", "fruits": {...}, "suspects": {...},
/// "incidents": {...}}`; CSV and NDJSON: one row per kind.
enum ImportPresenter {
  static let csvHeader = ["records", "added", "updated", "unchanged", "skipped", "dry_run"]

  static func render(_ report: ImportReport, _ context: CommandContext) -> String {
    let kinds = [
      ("fruits", report.fruits), ("suspects", report.suspects), ("incidents", report.incidents),
    ]
    func counts(_ counts: ImportReport.Counts) -> [(String, JSONValue)] {
      [
        ("added", .integer(Int64(counts.added))), ("updated", .integer(Int64(counts.updated))),
        ("unchanged", .integer(Int64(counts.unchanged))),
        ("skipped", .integer(Int64(counts.skipped))),
      ]
    }
    switch context.format {
    case .json:
      return JSONValue.object(
        [("dry_run", .bool(report.dryRun))] + kinds.map { ($0.0, .object(counts($0.1))) }
      ).serialized(pretty: true) + "\n"
    case .ndjson, .csv:
      return Render.list(
        context,
        json: kinds.map {
          [("records", .string($0.0))] + counts($0.1) + [("dry_run", .bool(report.dryRun))]
        },
        csvHeader: csvHeader,
        csv: kinds.map {
          [
            $0.0, "\($0.1.added)", "\($0.1.updated)", "\($0.1.unchanged)", "\($0.1.skipped)",
            "\(report.dryRun)",
          ]
        }, table: { "" })
    case .table:
      let lines = kinds.map { name, counts in
        "  \(name): \(counts.added) added, \(counts.updated) updated, "
          + "\(counts.unchanged) unchanged, \(counts.skipped) skipped"
      }
      let title =
        report.dryRun ? "Dry run: nothing was stored. The import would make:" : "Imported:"
      return ([title] + lines).joined(separator: "\n") + "\n"
    }
  }
}
