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
  /// The table's number in `history_changes.table_id`, fixed forever (docs/history.md "The
  /// tables"): 1 fruits, 2 animals, 3 favorite_fruits, 4 alibis, 5 sleep_schedules,
  /// 6 suspicion_levels, 7 incidents.
  let historyID: Int
  /// The table's name.
  let name: String
  /// The recorded columns, in the table's order.
  let columns: [String]
  /// The primary key columns (integers), in order: `history_changes.key1` and `key2`.
  let key: [String]
  /// The history's filters (`history <animal>`, `--fruit`, `--incident`): the suspect, fruit
  /// or incident (`animal_id`, `fruit_id`, `incident_id`) the row's changes are filed under,
  /// each with the recorded column whose value names it.
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

  /// What the row's key is filed under (the one whose column is the first key column: a
  /// suspect, fruit or incident), and that column.
  var owner: (entryColumn: String, keyColumn: String) {
    let filed = filedUnder.first { $0.column == key.first } ?? filedUnder[0]
    return (filed.entryColumn, filed.column)
  }

  /// The recorded columns that are not key columns, in order: the values the history stores
  /// in `history_changes.v1`, `v2`, ... (at most ``slotCount``).
  var slots: [String] { derived.slots }

  /// The number of value columns of `history_changes` (`v1` to `v6`).
  static let slotCount = 6

  /// `history_changes`' value column (`v1` ...) that holds `column`, or `nil` for a key column
  /// or a column the table does not record.
  func slot(of column: String) -> String? {
    slots.firstIndex(of: column).map { "v\($0 + 1)" }
  }

  /// `history_changes`' key column (`key1`, `key2`) that holds key column `column`, or `nil`.
  func keySlot(of column: String) -> String? {
    key.firstIndex(of: column).map { "key\($0 + 1)" }
  }

  /// The column of `history_changes` that holds `column` (`key1`, `key2`, `v1` ...), or `nil`.
  func storedColumn(of column: String) -> String? {
    keySlot(of: column) ?? slot(of: column)
  }

  /// SQL conditions, one for each recorded column, each true when that column of the live row
  /// `t` differs from the value the change `h` (a `history_changes` row) stores for it, in
  /// value or in storage class (text byte for byte): joined with `OR`, a superset of the rows
  /// that ``SQLiteValue``'s comparison tells apart, which `check` and undo then decide on.
  var liveDiffersFromChange: [String] {
    columns.compactMap { column in
      storedColumn(of: column).map {
        "t.\"\(column)\" IS NOT h.\($0) OR typeof(t.\"\(column)\") <> typeof(h.\($0))"
      }
    }
  }

  /// SQL that joins the live row `t` to the key columns `key1` (and `key2`) of `keys` (a
  /// `history_changes` row, or a row of such keys): `t."animal_id" = h.key1 AND ...`.
  func liveKeyEquals(_ keys: String) -> String {
    key.enumerated().map { "t.\"\($1)\" = \(keys).key\($0 + 1)" }.joined(separator: " AND ")
  }

  /// SQL true when the left-joined live row `t` is there.
  var livePresent: String { "t.\"\(key[0])\" IS NOT NULL" }

  /// SQL true when the live row `t` (left-joined: all NULL when there is none) is not what the
  /// change `h` says the row holds: `h` removed it and it is there, or `h` holds it and it is
  /// not there or one of its columns differs (``liveDiffersFromChange``). An operation other
  /// than 0 (delete) counts as holding the row: callers test unknown operations themselves.
  var liveDisagreesWithChange: String {
    "(h.operation = 0 AND \(livePresent)) OR (h.operation <> 0 AND (NOT \(livePresent)"
      + liveDiffersFromChange.map { " OR " + $0 }.joined() + "))"
  }

  /// Every recorded table, parents before children (the order rows can be inserted in).
  static let all: [RecordedTable] = [
    RecordedTable(
      historyID: 1, name: "fruits", columns: ["id", "name", "color"], key: ["id"],
      filedUnder: [("fruit_id", "id")], parents: [], unrecorded: ["name_key", "name_folded_from"]),
    RecordedTable(
      historyID: 2, name: "animals", columns: ["id", "name", "species", "paw_size", "emoji"],
      key: ["id"],
      filedUnder: [("animal_id", "id")], parents: [],
      unrecorded: [
        "species_key", "name_key", "suspicion_level", "species_folded_from", "name_folded_from",
      ]),
    RecordedTable(
      historyID: 3, name: "favorite_fruits", columns: ["animal_id", "fruit_id", "position"],
      key: ["animal_id", "fruit_id"],
      filedUnder: [("animal_id", "animal_id"), ("fruit_id", "fruit_id")],
      parents: [("animal_id", "animals", true), ("fruit_id", "fruits", false)], unrecorded: []),
    RecordedTable(
      historyID: 4, name: "alibis", columns: ["animal_id", "statement"], key: ["animal_id"],
      filedUnder: [("animal_id", "animal_id")], parents: [("animal_id", "animals", true)],
      unrecorded: []),
    RecordedTable(
      historyID: 5, name: "sleep_schedules", columns: ["animal_id", "sleep_at", "wake_at"],
      key: ["animal_id"],
      filedUnder: [("animal_id", "animal_id")], parents: [("animal_id", "animals", true)],
      unrecorded: []),
    RecordedTable(
      historyID: 6, name: "suspicion_levels", columns: ["animal_id", "level"], key: ["animal_id"],
      filedUnder: [("animal_id", "animal_id")], parents: [("animal_id", "animals", true)],
      unrecorded: []),
    RecordedTable(
      historyID: 7, name: "incidents",
      columns: ["id", "fruit_id", "occurred_at", "paw_size", "latitude", "longitude", "notes"],
      key: ["id"], filedUnder: [("fruit_id", "fruit_id"), ("incident_id", "id")],
      parents: [("fruit_id", "fruits", false)], unrecorded: []),
  ]

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

  /// The recorded table with this `history_changes.table_id`, or `nil`.
  static func numbered(_ id: Int64) -> RecordedTable? {
    byNumber[id]
  }

  /// The recorded table and key that `statement`'s row names in three columns from `first`:
  /// `table_id`, `key1`, `key2` as `history_changes` holds them (`key2` read only for a table
  /// with two key columns).
  ///
  /// - Throws: ``CaseError/historyDisagrees(_:)`` for a table number the history does not
  ///   record (a history changed by hand).
  static func row(in statement: Statement, from first: Int) throws -> (
    table: RecordedTable, key: [String: SQLiteValue]
  ) {
    let number = statement.value(at: first)
    guard let table = number.integerValue.flatMap(numbered) else {
      throw CaseError.historyDisagrees("history names table \(HistoryCheck.shown(number))")
    }
    var key: [String: SQLiteValue] = [:]
    for (index, column) in table.key.enumerated() {
      key[column] = statement.value(at: first + 1 + index)
    }
    return (table, key)
  }

  private static let byNumber: [Int64: RecordedTable] = Dictionary(
    all.map { (Int64($0.historyID), $0) }, uniquingKeysWith: { first, _ in first })

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

  /// One row of this table as a set member: the table and its key's values, or `nil` when a
  /// key column is missing or not an integer (as for ``keyText(_:)``).
  func rowIdentity(_ values: [String: SQLiteValue]) -> RowIdentity? {
    guard let first = key.first.flatMap({ values[$0]?.integerValue }) else { return nil }
    var second: Int64?
    if key.count > 1 {
      guard let value = values[key[1]]?.integerValue else { return nil }
      second = value
    }
    return RowIdentity(table: historyID, key1: first, key2: second)
  }

  /// A row of a recorded table: its table's `historyID` and its key (one or two integers).
  struct RowIdentity: Hashable {
    let table: Int
    let key1: Int64
    let key2: Int64?
  }

  /// `"a" = ? AND "b" = ?` over the key columns.
  var keyCondition: String { derived.keyCondition }

  /// `SELECT` of every recorded column of the row with a key (bound in ``key`` order), in
  /// ``columns`` order.
  var liveRowQuery: String { derived.liveRowQuery }

  /// `DELETE` of the row with a key (bound in ``key`` order).
  var deleteRowStatement: String { derived.deleteRowStatement }

  /// What undo and its checks build from each table's description for every change they read,
  /// built once per table of ``all`` (by `historyID`).
  private struct Derived: Sendable {
    let slots: [String]
    let keyCondition: String
    let liveRowQuery: String
    let deleteRowStatement: String

    init(_ table: RecordedTable) {
      slots = table.columns.filter { !table.key.contains($0) }
      keyCondition = table.key.map { "\"\($0)\" = ?" }.joined(separator: " AND ")
      liveRowQuery =
        "SELECT " + table.columns.map { "\"\($0)\"" }.joined(separator: ", ")
        + " FROM \"\(table.name)\" WHERE " + keyCondition
      deleteRowStatement = "DELETE FROM \"\(table.name)\" WHERE " + keyCondition
    }
  }

  /// This table's texts: built once for the tables of ``all``, else now.
  private var derived: Derived { Self.derivedByNumber[historyID] ?? Derived(self) }

  private static let derivedByNumber: [Int: Derived] = Dictionary(
    all.map { ($0.historyID, Derived($0)) }, uniquingKeysWith: { first, _ in first })
}
