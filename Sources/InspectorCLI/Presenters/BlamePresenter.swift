import CaseStore

/// How `inspector blame` shows a record's fields (docs/output-formats.md "Blame"): one record
/// per field, with its value now and the change set that last set it; a table for people.
enum BlamePresenter {
  /// The CSV header, the JSON keys in the same order.
  static let csvHeader = ["field", "value", "source", "change_set", "at", "actor", "note"]

  /// The one JSON writer of a field: `field`, `value` (as stored: text, number or null),
  /// `source` (`history`, `default` or `unrecorded`), then the change set's `change_set`,
  /// `at`, `actor` and `note` (all `null` unless the source is `history`).
  static let json = JSONRecordWriter<CaseHistory.BlamedField> { field, object, output in
    object.member("field", field.field, to: &output)
    object.member("value", to: &output)
    SQLPresenter.writeJSON(field.value, to: &output)
    object.member("source", field.source.rawValue, to: &output)
    object.member("change_set", field.changeSet?.id, to: &output)
    object.member("at", field.changeSet?.at, to: &output)
    object.member("actor", field.changeSet?.actor, to: &output)
    object.member("note", field.changeSet?.note, to: &output)
  }

  /// The listing of fields as JSON, NDJSON, CSV records or table rows.
  static func listing(_ context: CommandContext) -> ListingWriter<CaseHistory.BlamedField> {
    ListingWriter(
      context, json: json, csvHeader: csvHeader,
      csv: { field in
        [
          field.field, SQLPresenter.text(field.value), field.source.rawValue,
          field.changeSet.map { "\($0.id)" }, field.changeSet?.at, field.changeSet?.actor,
          field.changeSet?.note,
        ]
      },
      layout: { _ in
        TableLayout(
          columns: [
            TextTable.Column("FIELD"), TextTable.Column("VALUE"),
            TextTable.Column("SET", alignment: .right), TextTable.Column("AT"),
            TextTable.Column("ACTOR"), TextTable.Column("NOTE"),
          ],
          cells: { field in
            let value = TextTable.singleLine(HistoryPresenter.show(field.value))
            guard let set = field.changeSet else {
              let why =
                field.source == .default
                ? "never set (the default)" : "not as recorded (written around the history)"
              return [field.field, value, "-", why, "", ""]
            }
            return [field.field, value, "\(set.id)", set.at, set.actor ?? "-", set.note ?? ""]
          })
      })
  }
}
