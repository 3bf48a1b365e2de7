import CaseStore

/// What the commands that work on the case file as a whole report (docs/operations.md): `init`
/// and `demo`'s file, `optimize`, `backup` and `restore`. Each report is one record: a JSON
/// object, a CSV row under its header, a sentence for people.
enum CaseFileReportPresenter {
  // MARK: - init

  /// What `init` found or made.
  struct Opened: Sendable {
    let path: String
    let created: Bool
    let schemaVersion: Int
    let suspects: Int
    let fruits: Int
  }

  /// The one JSON writer of `init`'s report: `path`, `created`, `schema_version`, `suspects`,
  /// `fruits`.
  static let openedJSON = JSONRecordWriter<Opened> { report, object, output in
    object.member("path", report.path, to: &output)
    object.member("created", report.created, to: &output)
    object.member("schema_version", report.schemaVersion, to: &output)
    object.member("suspects", report.suspects, to: &output)
    object.member("fruits", report.fruits, to: &output)
  }

  /// `Created PATH (schema version N): N suspect(s), N fruit(s).` (or `Opened`).
  static func render(_ report: Opened, _ context: CommandContext) -> String {
    Render.record(
      report, context, json: openedJSON,
      csvHeader: ["path", "created", "schema_version", "suspects", "fruits"],
      csv: [
        report.path, "\(report.created)", "\(report.schemaVersion)", "\(report.suspects)",
        "\(report.fruits)",
      ]
    ) {
      let verb = report.created ? "Created" : "Opened"
      return "\(verb) \(report.path) (schema version \(report.schemaVersion)):"
        + " \(report.suspects) suspect(s), \(report.fruits) fruit(s)."
    }
  }

  // MARK: - optimize

  /// The one JSON writer of `optimize`'s report.
  static let optimizeJSON = JSONRecordWriter<CaseDatabase.OptimizeReport> {
    report, object, output in
    object.member("page_size", report.pageSize, to: &output)
    object.member("pages_before", report.pagesBefore, to: &output)
    object.member("free_pages_before", report.freePagesBefore, to: &output)
    object.member("pages_after", report.pagesAfter, to: &output)
    object.member("free_pages_after", report.freePagesAfter, to: &output)
    object.member("vacuumed", report.vacuumed, to: &output)
    object.member("bytes_freed", report.bytesFreed, to: &output)
  }

  /// What `optimize` did, and what `--vacuum` freed or would free.
  static func render(_ report: CaseDatabase.OptimizeReport, _ context: CommandContext) -> String {
    Render.record(
      report, context, json: optimizeJSON,
      csvHeader: [
        "page_size", "pages_before", "free_pages_before", "pages_after", "free_pages_after",
        "vacuumed", "bytes_freed",
      ],
      csv: [
        "\(report.pageSize)", "\(report.pagesBefore)", "\(report.freePagesBefore)",
        "\(report.pagesAfter)", "\(report.freePagesAfter)", "\(report.vacuumed)",
        "\(report.bytesFreed)",
      ]
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
