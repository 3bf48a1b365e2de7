import CaseStore

/// The migrations of `migrate status` and `migrate up` (docs/output-formats.md "migrate status and
/// migrate up"): one object per migration (`version`, `name`, `state`, and for `status`
/// `applied_at`), a CSV row each, or a table or lines for people.
enum MigrationPresenter {
  /// The one JSON writer of a migration's status: `version`, `name`, `state`, `applied_at`
  /// (`migrate status`, `check`'s `migrations`).
  static let statusJSON = JSONRecordWriter<CaseFile.MigrationStatus> { status, object, output in
    object.member("version", status.version, to: &output)
    object.member("name", status.name, to: &output)
    object.member("state", status.state.rawValue, to: &output)
    object.member("applied_at", status.appliedAt, to: &output)
  }

  /// What `migrate status` prints.
  static func renderStatus(_ statuses: [CaseFile.MigrationStatus], _ context: CommandContext)
    -> String
  {
    Render.list(
      statuses, context, json: statusJSON,
      csvHeader: ["version", "name", "state", "applied_at"],
      csv: { ["\($0.version)", $0.name, $0.state.rawValue, $0.appliedAt] }
    ) {
      var table = TextTable(
        columns: [
          .init("VERSION", alignment: .right), .init("NAME"), .init("STATE"),
          .init("APPLIED AT"),
        ])
      table.rows = statuses.map {
        ["\($0.version)", $0.name, $0.state.rawValue, $0.appliedAt ?? "-"]
      }
      return table.render(headerStyle: context.style.bold)
    }
  }

  /// A migration `migrate up` applied (or, with `--dry-run`, would apply).
  struct Step: Sendable {
    let version: Int
    let name: String
    /// `applied`, or `pending` for a dry run.
    let state: String
  }

  /// The one JSON writer of a step of `migrate up`: `version`, `name`, `state`.
  static let stepJSON = JSONRecordWriter<Step> { step, object, output in
    object.member("version", step.version, to: &output)
    object.member("name", step.name, to: &output)
    object.member("state", step.state, to: &output)
  }

  /// What `migrate up` prints: the steps, and the schema version as a table. `mark` is the
  /// sentence saying the `application_id` was (or would be) restored: a last line of the
  /// table, a note on stderr in the other formats (which keep their shape).
  static func renderUp(
    _ applied: [(version: Int, name: String)], version: Int, dryRun: Bool,
    applicationIDRestored: Bool, _ context: CommandContext
  ) -> String {
    let mark =
      applicationIDRestored
      ? (dryRun ? "Would restore" : "Restored")
        + " the application_id \(CaseDatabase.applicationID), which a copy of the file lost"
        + " (migration 0004 is recorded)."
      : nil
    if let mark, context.format != .table {
      context.writeToStandardError("inspector: note: \(mark)\n")
    }
    let steps = applied.map {
      Step(version: $0.version, name: $0.name, state: dryRun ? "pending" : "applied")
    }
    let listing = Render.list(
      steps, context, json: stepJSON, csvHeader: ["version", "name", "state"],
      csv: { ["\($0.version)", $0.name, $0.state] }
    ) {
      if steps.isEmpty { return "Up to date (schema version \(version))." }
      let verb = dryRun ? "Would apply" : "Applied"
      return steps.map { "\(verb) \($0.version) \($0.name)" }.joined(separator: "\n")
        + (dryRun ? "" : "\nSchema version \(version).")
    }
    guard let mark, context.format == .table else { return listing }
    return listing + mark + "\n"
  }
}
