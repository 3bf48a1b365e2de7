import SQLiteKit

extension CaseHistory {
  /// The change set of the newest recorded change of one row that set each of its recorded
  /// columns (docs/history.md "Blame"): the history's one look-up of "who last set column c of
  /// row r".
  ///
  /// The row is `table`'s row with `key`, matched as the history files it (same table, same
  /// key as recorded; a row whose key another client changed is a new row from then on). Its
  /// changes are read in recording order, and a change *sets* a column when:
  /// - it is an insert, or an update that moved the row onto this key from another one: every
  ///   recorded column (the whole row arrived);
  /// - it is an update: each column whose value it changed (the history records only those);
  /// - it is a delete: every recorded column (the row, and with it every value, went away).
  ///
  /// A column no change set is absent from the result, as is every column of a row the
  /// history holds no change of (a row written with the history's triggers dropped). Whether
  /// the value set then is still the live value is not this function's concern: compare
  /// ``recordedRow(_:key:before:)`` with the live row for that.
  ///
  /// Reads the row's entries through the index on the suspect, fruit or incident the row is
  /// filed under (`history_entries_animal`, `_fruit`, `_incident`), then one look-up of
  /// `history_change_sets` per distinct change set found; writes nothing.
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
    guard let keyText = table.keyText(key), let owner = key[table.owner.keyColumn] else {
      return [:]
    }
    var setBy: [String: Int64] = [:]
    try Self.forEachRecordedEntry(
      database.connection,
      where: "e.\(table.owner.entryColumn) = ? AND e.table_name = ? AND e.row_key = ?",
      [owner, table.name, keyText]
    ) { entry in
      let moved =
        entry.operation == .update
        && entry.before.contains {
          table.key.contains($0.column) && $0.value != entry.key[$0.column]
        }
      let columns =
        entry.operation == .update && !moved ? entry.after.map(\.column) : table.columns
      for column in columns { setBy[column] = entry.changeSet }
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
