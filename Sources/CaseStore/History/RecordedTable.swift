import SQLiteKit

/// A table whose changes the history records (migration 0007): its recorded columns in the
/// order the triggers number them, and its key columns.
///
/// Undo, as-of views and the history's check write and read these tables through this list
/// only, so a table or column name read from the history is never put into SQL unless it is
/// one of these.
struct RecordedTable: Sendable {
  /// The table's name.
  let name: String
  /// The recorded columns, in the table's order (the `ordinal` of `history_values`).
  let columns: [String]
  /// The primary key columns, as `history_entries.row_key` names them.
  let key: [String]
  /// The column of `history_entries` that names the row's owner (`animal_id`, `fruit_id` or
  /// `incident_id`, each indexed), and the key column whose value it holds.
  let owner: (entryColumn: String, keyColumn: String)

  /// Every recorded table, parents before children (the order rows can be inserted in).
  static let all: [RecordedTable] = [
    RecordedTable(
      name: "fruits", columns: ["id", "name", "color"], key: ["id"], owner: ("fruit_id", "id")),
    RecordedTable(
      name: "animals", columns: ["id", "name", "species", "paw_size", "emoji"], key: ["id"],
      owner: ("animal_id", "id")),
    RecordedTable(
      name: "favorite_fruits", columns: ["animal_id", "fruit_id", "position"],
      key: ["animal_id", "fruit_id"], owner: ("animal_id", "animal_id")),
    RecordedTable(
      name: "alibis", columns: ["animal_id", "statement"], key: ["animal_id"],
      owner: ("animal_id", "animal_id")),
    RecordedTable(
      name: "sleep_schedules", columns: ["animal_id", "sleep_at", "wake_at"], key: ["animal_id"],
      owner: ("animal_id", "animal_id")),
    RecordedTable(
      name: "suspicion_levels", columns: ["animal_id", "level"], key: ["animal_id"],
      owner: ("animal_id", "animal_id")),
    RecordedTable(
      name: "incidents",
      columns: ["id", "fruit_id", "occurred_at", "paw_size", "latitude", "longitude", "notes"],
      key: ["id"], owner: ("incident_id", "id")),
  ]

  /// The schema's foreign keys between recorded tables (migrations 0001 and 0002): the child
  /// table, its column, and the parent table whose `id` it names. Those of `animals` cascade
  /// on delete; those of `fruits` restrict.
  static let references: [(child: String, column: String, parent: String)] = [
    ("favorite_fruits", "animal_id", "animals"), ("favorite_fruits", "fruit_id", "fruits"),
    ("alibis", "animal_id", "animals"), ("sleep_schedules", "animal_id", "animals"),
    ("suspicion_levels", "animal_id", "animals"), ("incidents", "fruit_id", "fruits"),
  ]

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

  /// `"a" = ? AND "b" = ?` over the key columns.
  var keyCondition: String {
    key.map { "\"\($0)\" = ?" }.joined(separator: " AND ")
  }
}
