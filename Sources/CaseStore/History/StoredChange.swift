import SQLiteKit

/// One row of `history_changes` (docs/history.md "The tables"): a change of one row of a
/// recorded table, with the whole row after it.
///
/// What the change changed is not stored: it is derived from the previous change of the same
/// row (``CaseHistory/previousChange(of:)``), one seek of `history_changes_row`.
struct StoredChange {
  /// `history_changes.operation`: 0 delete, 1 insert, 2 update.
  enum Kind: Int64 {
    case delete = 0
    case insert = 1
    case update = 2
  }

  /// Its id, ascending in the order the changes apply (every change of a change set has a
  /// higher id than those of every earlier change set).
  let id: Int64
  /// The change set it belongs to, when the query read it (``columns(_:changeSet:)`` with
  /// `changeSet: true`) or the reader knew it (``init(_:at:changeSet:)``); `nil` otherwise,
  /// or for a change before every change set (a history changed by hand).
  let changeSet: Int64?
  let table: RecordedTable
  /// The key columns' values, in ``RecordedTable/key`` order.
  let key: [SQLiteValue]
  let kind: Kind
  /// The non-key recorded columns after the change, in ``RecordedTable/slots`` order (all
  /// NULL for a delete).
  let values: [SQLiteValue]

  /// The columns of `history_changes` that ``init(_:at:changeSet:)`` reads, for a `SELECT`
  /// (prefixed with `alias.` when given). A change does not store its change set: with
  /// `changeSet`, the second column is the change set that holds it
  /// (``ChangeSetBounds/changeSet(of:)``, one seek per change); without, it is NULL.
  ///
  /// The lists without an alias or with `h`, and without the change set, are built once: undo
  /// asks for one several times a row (building it was a fourteenth of its instructions).
  static func columns(_ alias: String = "", changeSet: Bool = false) -> String {
    switch (alias, changeSet) {
    case ("", false): return plainColumns
    case ("h", false): return columnsOfH
    default: return listed(alias, changeSet: changeSet)
    }
  }

  private static let plainColumns = listed("", changeSet: false)
  private static let columnsOfH = listed("h", changeSet: false)

  /// The list ``columns(_:changeSet:)`` returns, built.
  private static func listed(_ alias: String, changeSet: Bool) -> String {
    let prefix = alias.isEmpty ? "" : alias + "."
    let set =
      changeSet
      ? ChangeSetBounds.changeSet(of: prefix.isEmpty ? "history_changes.id" : prefix + "id")
      : "NULL"
    return columnNames.enumerated().map { index, name in
      index == 1 ? set + " AS change_set_id" : prefix + name
    }.joined(separator: ", ")
  }

  /// The names ``columns(_:)`` lists, in order.
  private static let columnNames =
    ["id", "change_set_id", "table_id", "key1", "key2", "operation"]
    + (1...RecordedTable.slotCount).map { "v\($0)" }

  /// Reads a change from a row that holds ``columns(_:)``.
  ///
  /// - Throws: ``CaseError/historyDisagrees(_:)`` for a table number or operation the
  ///   history does not record, or a non-integer id, table, key or operation (a
  ///   history changed by hand); `RowDecodingError` when `first` is not given and the row has
  ///   no single `id` column.
  /// - Parameters:
  ///   - first: The position of the first of those columns (`id`) when the caller knows it;
  ///     otherwise it is looked up by name.
  ///   - known: The change set that holds the change, when the caller knows it (it read one
  ///     change set's range); otherwise the second column's, when it is an integer.
  init(_ row: Row, at first: Int? = nil, changeSet known: Int64? = nil) throws {
    // The columns follow each other in ``columns(_:)`` order.
    let statement = row.statement
    let first = try first ?? statement.column("id").index
    func integer(_ offset: Int) throws -> Int64 {
      guard case .integer(let number) = statement.value(at: first + offset) else {
        throw CaseError.historyDisagrees(
          "history change \(statement.value(at: first)) has a \(Self.columnNames[offset])"
            + " that is not an integer")
      }
      return number
    }
    id = try integer(0)
    let tableID = try integer(2)
    guard let table = RecordedTable.numbered(tableID) else {
      throw CaseError.historyDisagrees("history change \(id) names table \(tableID)")
    }
    guard let kind = Kind(rawValue: try integer(5)) else {
      throw CaseError.historyDisagrees("history change \(id) has an unknown operation")
    }
    changeSet = known ?? statement.value(at: first + 1).integerValue
    self.table = table
    self.kind = kind
    key = table.key.indices.map { statement.value(at: first + 3 + $0) }
    values = table.slots.indices.map { statement.value(at: first + 6 + $0) }
  }

  /// The key as column name to value.
  var keyValues: [String: SQLiteValue] {
    Dictionary(uniqueKeysWithValues: zip(table.key, key))
  }

  /// The whole row after the change (every recorded column), or `nil` after a delete.
  var row: [String: SQLiteValue]? {
    guard kind != .delete else { return nil }
    var row = keyValues
    for (column, value) in zip(table.slots, values) { row[column] = value }
    return row
  }
}

extension CaseHistory {
  /// The change of the same row just before `change`, or `nil` when it is the row's first.
  ///
  /// - Throws: ``CaseError/historyDisagrees(_:)``; `SQLiteError`.
  func previousChange(of change: StoredChange) throws -> StoredChange? {
    try Self.latestChange(
      database.connection, change.table, key: change.key, before: change.id)
  }

  /// The latest change of the row of `table` with `key` (key columns in order), only those
  /// with an id below `bound` when given, or `nil` when there is none: one seek of
  /// `history_changes_row`.
  ///
  /// - Throws: ``CaseError/historyDisagrees(_:)``; `SQLiteError`.
  static func latestChange(
    _ connection: Connection, _ table: RecordedTable, key: [SQLiteValue], before bound: Int64? = nil
  ) throws -> StoredChange? {
    let rows = try connection.cachedStatement(latestChangeSQL)
    try rows.bind([
      Int64(table.historyID), key.first ?? .null, key.count > 1 ? key[1] : .null,
      bound ?? .max,
    ])
    return try rows.nextRow().map { try StoredChange($0, at: 0) }
  }

  /// ``latestChange(_:_:key:before:)``'s query, built once.
  private static let latestChangeSQL = """
    SELECT \(StoredChange.columns()) FROM history_changes
    WHERE table_id = ? AND key1 = ? AND key2 IS ? AND id < ?
    ORDER BY id DESC LIMIT 1
    """

  /// The id of the last change of change set `id` or of any change set before it (`0` when
  /// there is none): every change with an id up to it, and no other, belongs to a change set
  /// up to `id`, since ids ascend with change sets.
  static func lastChange(_ connection: Connection, upTo id: Int64) throws -> Int64 {
    guard id < .max else { return try ChangeSetBounds(connection: connection).endOfChanges() - 1 }
    return try ChangeSetBounds(connection: connection).firstChange(from: id + 1) - 1
  }

  /// Hands `body` the latest change of every row of `table` with an id up to `bound` that is
  /// not a delete (the rows alive after the change set whose last change is `bound`), in key
  /// order, one at a time: the history's rows as SQL streams them, never a dictionary of the
  /// whole case.
  ///
  /// - Throws: ``CaseError/historyDisagrees(_:)``; `SQLiteError`; what `body` throws.
  ///
  /// With `key1`, only the rows whose first key column is `key1` (a suspect's rows of a table
  /// keyed by `animal_id`, or one row): index seeks for those rows alone (the condition is
  /// written only then: `?3 IS NULL OR key1 = ?3` would hide `key1` from the index, and every
  /// row of the table would be read).
  ///
  /// With `condition`, only the rows for which that SQL condition over the change `h` also
  /// holds (check's "the table holds no such row").
  static func forEachRecordedRow(
    _ connection: Connection, _ table: RecordedTable, upTo bound: Int64, key1: Int64? = nil,
    where condition: String? = nil, _ body: (StoredChange) throws -> Void
  ) throws {
    let rows = try latestAliveRows(
      connection, table, StoredChange.columns("h"), upTo: bound, key1: key1, where: condition)
    while let row = try rows.nextRow() { try body(try StoredChange(row, at: 0)) }
  }

  /// ``forEachRecordedRow(_:_:upTo:key1:_:)`` as bare values: each alive row's recorded
  /// columns in ``RecordedTable/columns`` order, read straight from the columns of
  /// `history_changes` that hold them, for copying rows in bulk.
  ///
  /// - Throws: `SQLiteError`; what `body` throws.
  static func forEachRecordedRowValues(
    _ connection: Connection, _ table: RecordedTable, upTo bound: Int64, key1: Int64? = nil,
    _ body: ([SQLiteValue]) throws -> Void
  ) throws {
    let stored = table.columns.map { "h.\(table.storedColumn(of: $0) ?? "NULL")" }
      .joined(separator: ", ")
    let rows = try latestAliveRows(connection, table, stored, upTo: bound, key1: key1)
    while try rows.step() { try body(rows.row()) }
  }

  /// The one query behind ``forEachRecordedRow(_:_:upTo:key1:where:_:)`` and
  /// ``forEachRecordedRowValues(_:_:upTo:key1:_:)``: `columns` of the latest change `h` of
  /// every row of `table` up to `bound` that is not a delete, in key order, prepared and bound.
  private static func latestAliveRows(
    _ connection: Connection, _ table: RecordedTable, _ columns: String, upTo bound: Int64,
    key1: Int64?, where condition: String? = nil
  ) throws -> Statement {
    let rows = try connection.prepare(
      """
      SELECT \(columns)
      FROM (SELECT max(id) AS id FROM history_changes INDEXED BY history_changes_row
          WHERE table_id = ?1 AND id <= ?2\(key1 == nil ? "" : " AND key1 = ?3")
          GROUP BY key1, key2) AS m
        JOIN history_changes AS h ON h.id = m.id
      WHERE h.operation <> 0\(condition.map { " AND (\($0))" } ?? "")
      """)
    try rows.bind(
      key1.map { [Int64(table.historyID), bound, $0] } ?? [Int64(table.historyID), bound])
    return rows
  }
}
