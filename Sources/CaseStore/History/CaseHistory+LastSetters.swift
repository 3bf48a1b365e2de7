import SQLiteKit

extension CaseHistory {
  /// The change set of the newest recorded change of one row that set each of its recorded
  /// columns (docs/history.md "Blame"): the history's one look-up of "who last set column c of
  /// row r".
  ///
  /// The row is `table`'s row with `key`, matched as the history files it (same table, same
  /// key as recorded; a key change is a delete of the old key and an insert of the new one).
  /// Its changes are read in recording order, and a change *sets* a column when:
  /// - it is an insert of a row the history did not hold: every recorded column (the whole
  ///   row arrived);
  /// - it is an update, or an insert over a row the history holds (another client's REPLACE):
  ///   each column whose value differs from the row's previous change;
  /// - it is a delete: every recorded column (the row, and with it every value, went away).
  ///
  /// A column no change set is absent from the result, as is every column of a row the
  /// history holds no change of (a row written with the history's triggers dropped). Whether
  /// the value set then is still the live value is not this function's concern: compare
  /// ``recordedRow(_:key:before:)`` with the live row for that.
  ///
  /// Reads the row's changes through the index of each row's changes (`history_changes_row`),
  /// then one look-up of `history_change_sets` per distinct change set found; writes nothing.
  ///
  /// - Parameters:
  ///   - table: A recorded table (``RecordedTable/all``).
  ///   - key: The row's key columns (``RecordedTable/key``) and their integer values.
  /// - Returns: Recorded column name (any of ``RecordedTable/columns``, key columns included)
  ///   to the change set that last set it; empty for a key missing a column.
  /// - Throws: ``CaseError/historyDisagrees(_:)`` for an entry the history does not record (a
  ///   history changed by hand); `SQLiteError`.
  func lastSetters(of table: RecordedTable, key: [String: SQLiteValue]) throws -> [String:
    ChangeSet]
  {
    let values = table.key.map { key[$0] ?? .null }
    guard values.allSatisfy({ $0.integerValue != nil }) else { return [:] }
    var setBy: [String: Int64] = [:]
    try Self.forEachStoredChange(
      database.connection, where: "table_id = ? AND key1 = ? AND key2 IS ?",
      [Int64(table.historyID), values[0], values.count > 1 ? values[1] : .null]
    ) { change in
      let entry = try recordedEntry(change)
      let columns = entry.operation == .update ? entry.after.map(\.column) : table.columns
      guard let changeSet = entry.changeSet else {
        throw CaseError.historyDisagrees("history change \(entry.id) precedes every change set")
      }
      for column in columns { setBy[column] = changeSet }
    }
    var sets: [Int64: ChangeSet] = [:]
    let read = try database.statement(
      "SELECT id, at, actor, note FROM history_change_sets WHERE id = ?")
    for id in Set(setBy.values) {
      read.reset()
      try read.bind([id])
      guard let row = try read.nextRow() else {
        throw CaseError.historyDisagrees("a history entry names change set \(id), which is gone")
      }
      sets[id] = ChangeSet(
        id: id, at: try row.text("at"), actor: try row.optionalText("actor"),
        note: try row.optionalText("note"))
    }
    read.reset()
    return setBy.compactMapValues { sets[$0] }
  }
}
