import CaseStore

/// Lists ``RecordChange``s (`diff`, `changes show`): the change in words in a table, and
/// `table`, `key`, `operation`, `before`, `after` and `description` as data (docs/changes.md);
/// and reports what `changes apply` applied or the conflicts that stopped it.
enum ChangePresenter {
  /// A listing of changes in the context's format.
  static func listing(_ context: CommandContext) -> ListingWriter<RecordChange> {
    ListingWriter(
      context, json: json,
      csvHeader: ["table", "operation", "key", "before", "after", "description"],
      csv: { change in
        [
          change.table, change.operation.rawValue, object(change.key),
          change.before.isEmpty ? nil : object(change.before),
          change.after.isEmpty ? nil : object(change.after), change.description,
        ]
      },
      layout: { _ in
        TableLayout(
          columns: [.init("TABLE"), .init("CHANGE")],
          cells: { [$0.table, $0.description] })
      })
  }

  /// The one JSON writer of a change.
  static let json = JSONRecordWriter<RecordChange> { change, object, output in
    object.member("table", change.table, to: &output)
    object.member("key", fields(change.key), SQLPresenter.fieldsJSON, to: &output)
    object.member("operation", change.operation.rawValue, to: &output)
    object.member(
      "before", change.before.isEmpty ? nil : fields(change.before), SQLPresenter.fieldsJSON,
      to: &output)
    object.member(
      "after", change.after.isEmpty ? nil : fields(change.after), SQLPresenter.fieldsJSON,
      to: &output)
    object.member("description", change.description, to: &output)
  }

  /// Column name to value, as compact JSON text (a CSV field).
  static func object(_ fields: [RecordChange.Field]) -> String {
    SQLPresenter.fieldsJSON.compactText(self.fields(fields))
  }

  /// The fields as the column-value pairs ``SQLPresenter/fieldsJSON`` writes.
  private static func fields(_ fields: [RecordChange.Field]) -> [(
    column: String, value: AdHocValue
  )] {
    fields.map { (column: $0.column, value: $0.value) }
  }

  /// Writes `changes` in the context's format; a table with no change says so instead.
  static func write(_ changes: [RecordChange], none: String, _ context: CommandContext) throws {
    if changes.isEmpty, context.format == .table {
      try context.output.write(none + "\n")
      return
    }
    let listing = listing(context)
    try listing.write(changes)
    try listing.finish()
  }

  // MARK: - changes apply

  /// What `changes apply` applied: `path`, `changes`, `written`, `replaced`, `skipped` and
  /// `conflicts` (`{"kind", "change", "outcome"}`, outcome `replaced` or `skipped`) in JSON;
  /// CSV counts the conflicts; a table says it in words, one line per conflict.
  static func render(
    _ applied: ChangesetApplication, path: String, _ context: CommandContext
  ) -> String {
    Render.record(
      (path: path, applied: applied), context, json: applicationJSON,
      csvHeader: ["path", "changes", "conflicts", "written", "replaced", "skipped"],
      csv: [
        path, "\(applied.changes)", "\(applied.conflicts.count)", "\(applied.written)",
        "\(applied.replaced)", "\(applied.skipped)",
      ]
    ) {
      let summary =
        applied.conflicts.isEmpty
        ? "Applied \(path): \(applied.changes) change(s)."
        : "Applied \(path): \(applied.written) of \(applied.changes) change(s) written"
          + " (\(applied.replaced) replaced), \(applied.skipped) skipped."
      return
        ([summary]
        + applied.conflicts.map {
          "\($0.replaced ? "replaced" : "skipped") (\($0.kind)): \($0.change)"
        }).joined(separator: "\n")
    }
  }

  /// The JSON writer of `changes apply`'s report.
  static let applicationJSON = JSONRecordWriter<(path: String, applied: ChangesetApplication)> {
    report, object, output in
    let applied = report.applied
    object.member("path", report.path, to: &output)
    object.member("changes", applied.changes, to: &output)
    object.member("written", applied.written, to: &output)
    object.member("replaced", applied.replaced, to: &output)
    object.member("skipped", applied.skipped, to: &output)
    object.member("conflicts", applied.conflicts, appliedConflictJSON, to: &output)
  }

  /// A conflict met by an apply: `kind`, `change`, `outcome` (`replaced` or `skipped`).
  static let appliedConflictJSON = JSONRecordWriter<ChangesetApplication.Conflict> {
    conflict, object, output in
    object.member("kind", conflict.kind, to: &output)
    object.member("change", conflict.change, to: &output)
    object.member("outcome", conflict.replaced ? "replaced" : "skipped", to: &output)
  }

  /// The conflicts that stopped an apply (`--on-conflict fail`), record by record: one
  /// `conflict (KIND): CHANGE` line each as a table, `{"kind", "change"}` objects in JSON (an
  /// array) and NDJSON (one a line), `kind,change` rows in CSV.
  static func conflicts(_ conflicts: [(kind: String, change: String)], _ context: CommandContext)
    -> String
  {
    Render.list(
      conflicts, context, json: conflictJSON, csvHeader: ["kind", "change"],
      csv: { [$0.kind, $0.change] }
    ) { conflicts.map { "conflict (\($0.kind)): \($0.change)\n" }.joined() }
  }

  /// A conflict that stopped an apply: `kind`, `change`.
  static let conflictJSON = JSONRecordWriter<(kind: String, change: String)> {
    conflict, object, output in
    object.member("kind", conflict.kind, to: &output)
    object.member("change", conflict.change, to: &output)
  }
}

extension ChangesetApplication {
  /// How many conflicting changes replaced the rows they met.
  fileprivate var replaced: Int { conflicts.filter(\.replaced).count }
  /// How many conflicting changes were skipped.
  fileprivate var skipped: Int { conflicts.count - replaced }
}
