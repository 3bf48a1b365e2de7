import CaseStore

/// Lists ``RecordChange``s (`diff`, `changes show`): the change in words in a table, and
/// `table`, `key`, `operation`, `before`, `after` and `description` as data (docs/changes.md).
enum ChangePresenter {
  /// A listing of changes in the context's format.
  static func listing(_ context: CommandContext) -> ListingWriter<RecordChange> {
    ListingWriter(
      context, json: json,
      csvHeader: ["table", "operation", "key", "before", "after", "description"],
      csv: { change in
        [
          change.table, change.operation.rawValue, object(change.key).serialized(),
          change.before.isEmpty ? nil : object(change.before).serialized(),
          change.after.isEmpty ? nil : object(change.after).serialized(), change.description,
        ]
      },
      layout: { _ in
        TableLayout(
          columns: [.init("TABLE"), .init("CHANGE")],
          cells: { [$0.table, $0.description] })
      })
  }

  /// The JSON members of one change.
  static func json(_ change: RecordChange) -> [(String, JSONValue)] {
    [
      ("table", .string(change.table)), ("key", object(change.key)),
      ("operation", .string(change.operation.rawValue)),
      ("before", change.before.isEmpty ? .null : object(change.before)),
      ("after", change.after.isEmpty ? .null : object(change.after)),
      ("description", .string(change.description)),
    ]
  }

  /// Column name to value.
  static func object(_ fields: [RecordChange.Field]) -> JSONValue {
    .object(fields.map { ($0.column, SQLCommand.json($0.value)) })
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
}
