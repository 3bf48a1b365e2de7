import CaseStore

/// What the commands that work on the case file as a whole report (docs/operations.md):
/// `init`, `optimize`, `backup` and `restore`. Each report is one record: a JSON object, a CSV
/// row under its header, a sentence for people.
enum CaseFileReportPresenter {
  // MARK: - init

  /// What `init` found or made: `path`, `created`, `schema_version`, `suspects`, `fruits`;
  /// `Created PATH (schema version N): N suspect(s), N fruit(s).` (or `Opened`).
  static func renderOpened(
    path: String, created: Bool, schemaVersion: Int, suspects: Int, fruits: Int,
    _ context: CommandContext
  ) -> String {
    Render.fields(
      [
        ("path", path), ("created", created), ("schema_version", schemaVersion),
        ("suspects", suspects), ("fruits", fruits),
      ], context
    ) {
      "\(created ? "Created" : "Opened") \(path) (schema version \(schemaVersion)):"
        + " \(suspects) suspect(s), \(fruits) fruit(s)."
    }
  }

  // MARK: - optimize

  /// What `optimize` did, and what `--vacuum` freed or would free.
  static func render(_ report: CaseDatabase.OptimizeReport, _ context: CommandContext) -> String {
    Render.fields(
      [
        ("page_size", report.pageSize), ("pages_before", report.pagesBefore),
        ("free_pages_before", report.freePagesBefore), ("pages_after", report.pagesAfter),
        ("free_pages_after", report.freePagesAfter), ("vacuumed", report.vacuumed),
        ("bytes_freed", report.bytesFreed),
      ], context
    ) {
      var text = "Statistics refreshed (ANALYZE, PRAGMA optimize)."
      if report.vacuumed {
        text +=
          "\nVacuumed: \(report.pagesBefore) pages before, \(report.pagesAfter) after; freed "
          + "\(report.bytesFreed) bytes (\(report.bytesFreed / report.pageSize) pages of "
          + "\(report.pageSize) bytes)."
      } else if report.freePagesBefore > 0 {
        text +=
          "\n\(report.freePagesBefore) free pages (\(report.freePagesBefore * report.pageSize)"
          + " bytes); 'inspector optimize --vacuum' gives them back."
      }
      return text
    }
  }

  // MARK: - backup

  /// The one JSON writer of `backup`'s report: `path`, `pages`, `faults` (findings, see
  /// ``CheckPresenter/findingJSON``).
  static let backupJSON = JSONRecordWriter<CaseFile.BackupSummary> { summary, object, output in
    object.member("path", summary.path, to: &output)
    object.member("pages", summary.pages, to: &output)
    object.member("faults", summary.faults, CheckPresenter.findingJSON, to: &output)
  }

  /// What `backup` wrote to `destination`, and whether it would restore as it is.
  static func render(
    _ summary: CaseFile.BackupSummary, destination: String, _ context: CommandContext
  ) -> String {
    var summary = summary
    summary.path = destination
    return Render.record(
      summary, context, json: backupJSON, csvHeader: ["path", "pages", "faults"],
      csv: [destination, "\(summary.pages)", "\(summary.faults.count)"]
    ) {
      "Backed up \(context.databasePath) to \(destination) (\(summary.pages) pages)"
        + (summary.faults.isEmpty
          ? "." : "; it will not restore as it is (\(summary.faults.count) fault(s)).")
    }
  }

  /// `\r[#########...........]  45%` for a terminal.
  static func progressLine(done: Int, total: Int) -> String {
    let width = 30
    let filled = total == 0 ? width : done * width / total
    let percent = total == 0 ? 100 : done * 100 / total
    return "\r[" + String(repeating: "#", count: filled)
      + String(repeating: ".", count: width - filled) + "] \(percent)%"
  }

  // MARK: - restore

  /// What `restore` did (or, with `--dry-run`, would do).
  struct Restored: Sendable {
    let path: String
    let source: String
    let summary: CaseFile.RestoreSummary
    let dryRun: Bool
  }

  /// The one JSON writer of `restore`'s report: `path`, `source`, `schema_version`,
  /// `suspects`, `created`, `migration_needed`, `dry_run`, `accepted_faults`.
  static let restoredJSON = JSONRecordWriter<Restored> { report, object, output in
    object.member("path", report.path, to: &output)
    object.member("source", report.source, to: &output)
    object.member("schema_version", report.summary.schemaVersion, to: &output)
    object.member("suspects", report.summary.suspects, to: &output)
    object.member("created", report.summary.created, to: &output)
    object.member("migration_needed", report.summary.migrationNeeded, to: &output)
    object.member("dry_run", report.dryRun, to: &output)
    object.member(
      "accepted_faults", report.summary.acceptedFaults, CheckPresenter.findingJSON, to: &output)
  }

  /// `Restored PATH from SOURCE: ...`, with the faults accepted and whether it needs
  /// `migrate up`.
  static func render(_ report: Restored, _ context: CommandContext) -> String {
    let summary = report.summary
    let accepted = summary.acceptedFaults
    return Render.record(
      report, context, json: restoredJSON,
      csvHeader: [
        "path", "source", "schema_version", "suspects", "created", "migration_needed", "dry_run",
        "accepted_faults",
      ],
      csv: [
        report.path, report.source, "\(summary.schemaVersion)", "\(summary.suspects)",
        "\(summary.created)", "\(summary.migrationNeeded)", "\(report.dryRun)",
        "\(accepted.count)",
      ]
    ) {
      (report.dryRun ? "Would restore" : "Restored")
        + " \(report.path) from \(report.source): schema version"
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
