import SQLiteKit

/// A table whose changes the history records, as the one description of the recorded tables
/// says it (docs/history.md "Recorded tables"): its recorded columns in the order the triggers
/// number them, its key, the history's owner columns it fills, its parents, and the columns it
/// deliberately does not record.
///
/// ``all`` is the only place the recorded tables and columns are listed: the history's triggers
/// are generated from it (``HistoryTriggers``, written to a migration by
/// `scripts/history-triggers.sh`), and undo, as-of views, the history's check, pruning and the
/// changes' words read it. A table or column name read from the history is never put into SQL
/// unless it is one of these.
struct RecordedTable: Sendable {
  /// The table's name.
  let name: String
  /// The recorded columns, in the table's order (the `ordinal` of `history_values`, from 0).
  let columns: [String]
  /// The primary key columns (integers), as `history_entries.row_key` names them, in order.
  let key: [String]
  /// The columns of `history_entries` that file the row's entries under a suspect, fruit or
  /// incident (`animal_id`, `fruit_id`, `incident_id`), each with the recorded column whose
  /// value it holds; the others are NULL.
  let filedUnder: [(entryColumn: String, column: String)]
  /// The foreign keys of this table to other recorded tables (migrations 0001 and 0002): the
  /// column, the parent table whose `id` it names, and whether removing the parent removes the
  /// row (`ON DELETE CASCADE`, those to `animals`; otherwise the schema refuses it, those to
  /// `fruits`).
  let parents: [(column: String, table: String, cascades: Bool)]
  /// The table's columns the history does not record: derived or internal ones that the
  /// schema's triggers or inspector compute from the recorded ones (docs/schema.md). Every
  /// column of the table is in ``columns`` or here.
  let unrecorded: [String]

  /// The owner column of `history_entries` that the row's key is filed under (the one whose
  /// column is the first key column), and that column.
  var owner: (entryColumn: String, keyColumn: String) {
    let filed = filedUnder.first { $0.column == key.first } ?? filedUnder[0]
    return (filed.entryColumn, filed.column)
  }

  /// Every recorded table, parents before children (the order rows can be inserted in).
  static let all: [RecordedTable] = [
    RecordedTable(
      name: "fruits", columns: ["id", "name", "color"], key: ["id"],
      filedUnder: [("fruit_id", "id")], parents: [], unrecorded: ["name_key", "name_folded_from"]),
    RecordedTable(
      name: "animals", columns: ["id", "name", "species", "paw_size", "emoji"], key: ["id"],
      filedUnder: [("animal_id", "id")], parents: [],
      unrecorded: [
        "species_key", "name_key", "suspicion_level", "species_folded_from", "name_folded_from",
      ]),
    RecordedTable(
      name: "favorite_fruits", columns: ["animal_id", "fruit_id", "position"],
      key: ["animal_id", "fruit_id"],
      filedUnder: [("animal_id", "animal_id"), ("fruit_id", "fruit_id")],
      parents: [("animal_id", "animals", true), ("fruit_id", "fruits", false)], unrecorded: []),
    RecordedTable(
      name: "alibis", columns: ["animal_id", "statement"], key: ["animal_id"],
      filedUnder: [("animal_id", "animal_id")], parents: [("animal_id", "animals", true)],
      unrecorded: []),
    RecordedTable(
      name: "sleep_schedules", columns: ["animal_id", "sleep_at", "wake_at"], key: ["animal_id"],
      filedUnder: [("animal_id", "animal_id")], parents: [("animal_id", "animals", true)],
      unrecorded: []),
    RecordedTable(
      name: "suspicion_levels", columns: ["animal_id", "level"], key: ["animal_id"],
      filedUnder: [("animal_id", "animal_id")], parents: [("animal_id", "animals", true)],
      unrecorded: []),
    RecordedTable(
      name: "incidents",
      columns: ["id", "fruit_id", "occurred_at", "paw_size", "latitude", "longitude", "notes"],
      key: ["id"], filedUnder: [("fruit_id", "fruit_id"), ("incident_id", "id")],
      parents: [("fruit_id", "fruits", false)], unrecorded: []),
  ]

  /// The owner columns of `history_entries`, in their order there.
  static let entryOwnerColumns = ["animal_id", "fruit_id", "incident_id"]

  /// The schema's foreign keys between recorded tables (every table's ``parents``): the child
  /// table, its column, the parent table whose `id` it names, and whether it cascades.
  static let references: [(child: String, column: String, parent: String, cascades: Bool)] =
    all.flatMap { table in table.parents.map { (table.name, $0.column, $0.table, $0.cascades) } }

  /// `table.column` for every column the history does not record (``unrecorded``).
  static let unrecordedColumns: Set<String> = Set(
    all.flatMap { table in table.unrecorded.map { "\(table.name).\($0)" } })

  /// The recorded table of this name, or `nil`.
  static func named(_ name: String) -> RecordedTable? {
    all.first { $0.name == name }
  }

  /// The key text the history's triggers write for these values (`{"animal_id":4,"fruit_id":15}`),
  /// or `nil` when a key column is missing or not an integer.
  func keyText(_ values: [String: SQLiteValue]) -> String? {
    var members: [String] = []
    for column in key {
      guard let number = values[column]?.integerValue else { return nil }
      members.append("\"\(column)\":\(number)")
    }
    return "{" + members.joined(separator: ",") + "}"
  }

  /// The values of the history's owner columns (``entryOwnerColumns``, in order) for a row with
  /// these values, as the triggers file them: NULL where the table fills none.
  func ownerValues(_ values: [String: SQLiteValue]) -> [SQLiteValue] {
    Self.entryOwnerColumns.map { entryColumn in
      filedUnder.first { $0.entryColumn == entryColumn }.map { values[$0.column] ?? .null }
        ?? .null
    }
  }

  /// `"a" = ? AND "b" = ?` over the key columns.
  var keyCondition: String {
    key.map { "\"\($0)\" = ?" }.joined(separator: " AND ")
  }
}
