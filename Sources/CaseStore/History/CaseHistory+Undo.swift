import SQLiteKit

extension CaseHistory {
  /// What ``CaseTransaction/undo(_:)`` did.
  public struct Undo: Sendable, Equatable {
    /// The change set that was reverted.
    public let undone: Int64
    /// The change set that records the undo itself, or `nil` when there was nothing to revert
    /// (a change set with no changes).
    public let changeSet: Int64?
    /// How many changes were reverted.
    public let changes: Int
  }

  /// Reverts one change set (docs/history.md "Undo") inside the caller's write unit of work,
  /// whose change set records it (with the note `undo of change set N` unless the unit's
  /// attribution gives one).
  ///
  /// The changes are reverted newest first: an insert is deleted, a deleted row is inserted
  /// again with every recorded column, an update gets its before values back. Derived columns
  /// are recomputed by the schema's triggers; foreign keys are checked at commit, so rows
  /// removed by a cascade come back whatever order they were recorded in.
  ///
  /// - Parameter id: The change set, or `nil` for the next one not yet undone
  ///   (``undoNext()``: the walk back and its value-based conflict rule).
  /// - Returns: The reverted change set, the undo's change set and the number of changes.
  /// - Throws: ``CaseError/unknownChangeSet(_:)`` when there is no such change set (or none at
  ///   all); ``CaseError/nothingToUndo`` when every change set is undone;
  ///   ``CaseError/undoConflict(changeSet:later:)`` when a later change set changed one of the
  ///   same rows (same table and key);
  ///   ``CaseError/undoUnexpectedRow(changeSet:row:problem:)`` when a row it would write (or
  ///   remove by a suspect's cascade) is not, in every recorded column, as the history says
  ///   it is now (a write went around the history's triggers);
  ///   ``CaseError/undoBreaksReference(changeSet:problem:)`` when the undo would leave a row
  ///   naming a fruit or suspect that is gone (an incident of a fruit whose addition it
  ///   reverts); ``CaseError/historyDisagrees(_:)`` for a history changed by hand;
  ///   `SQLiteError` when the schema refuses a row. Nothing is changed then.
  func undo(_ id: Int64? = nil) throws -> Undo {
    // Without an id: the next change set not yet undone (CaseHistory+UndoStack.swift).
    guard let id else { return try undoNext() }
    let connection = database.connection
    let current = try connection.scalar(
      "SELECT change_set_id FROM history_context")?.integerValue
    guard id != current,
      try connection.scalar("SELECT 1 FROM history_change_sets WHERE id = ?", [id]) != nil
    else { throw CaseError.unknownChangeSet("\(id)") }
    let target = id
    let later = try laterChangeSets(touchingRowsOf: target, excluding: current)
    guard later.isEmpty else { throw CaseError.undoConflict(changeSet: target, later: later) }
    let changes = try revertChangeSet(target)
    if let current {
      try connection.execute(
        "UPDATE history_change_sets SET note = ? WHERE id = ? AND note IS NULL",
        ["undo of change set \(target)", current])
      if changes > 0 { try recordReverts(by: current, kind: .undo, [target]) }
    }
    return Undo(undone: target, changeSet: changes == 0 ? nil : current, changes: changes)
  }

  /// Reverts every change of change set `target`, newest first, against the live rows, after
  /// checking that each row it writes is as the history says
  /// (``expectRowsAsRecorded(_:undoing:)``) and before checking that no row is left naming a
  /// parent that is gone (``expectReferencesKept(_:undoing:)``). No conflict rule: the caller
  /// decides whether `target` may be reverted. Foreign keys are deferred to the commit.
  ///
  /// - Returns: How many changes were reverted (0 for a change set without changes).
  /// - Throws: As ``undo(_:)`` does, but never ``CaseError/undoConflict(changeSet:later:)``.
  func revertChangeSet(_ target: Int64) throws -> Int {
    try database.connection.execute("PRAGMA defer_foreign_keys = ON")
    let entries = try recordedEntries(of: target)
    try expectRowsAsRecorded(entries, undoing: target)
    for entry in entries.reversed() { try revert(entry) }
    try expectReferencesKept(entries, undoing: target)
    return entries.count
  }

  // MARK: - Entries

  /// One recorded change as undo and as-of views read it.
  struct RecordedEntry {
    /// The entry's id (`history_entries.id`).
    let id: Int64
    /// The change set it belongs to.
    let changeSet: Int64
    let table: RecordedTable
    /// The key columns and values (after the change; before it for a delete).
    let key: [String: SQLiteValue]
    let operation: Operation
    /// The recorded columns' before values, in column order.
    let before: [(column: String, value: SQLiteValue)]
    /// The recorded columns' after values, in column order.
    let after: [(column: String, value: SQLiteValue)]
  }

  /// The ids of the change sets after `id` (other than `excluded`) that changed a row that
  /// change set `id` changed, ascending. Rows are matched by table and key, through the
  /// indexes on the suspect, fruit and incident each entry names.
  func laterChangeSets(touchingRowsOf id: Int64, excluding excluded: Int64?) throws -> [Int64] {
    let rows = try database.connection.prepare(
      """
      SELECT l.change_set_id FROM history_entries e JOIN history_entries l
        ON l.animal_id = e.animal_id AND l.table_name = e.table_name AND l.row_key = e.row_key
      WHERE e.change_set_id = ?1 AND l.change_set_id > ?1 AND l.change_set_id IS NOT ?2
      UNION
      SELECT l.change_set_id FROM history_entries e JOIN history_entries l
        ON l.fruit_id = e.fruit_id AND l.table_name = e.table_name AND l.row_key = e.row_key
      WHERE e.change_set_id = ?1 AND l.change_set_id > ?1 AND l.change_set_id IS NOT ?2
      UNION
      SELECT l.change_set_id FROM history_entries e JOIN history_entries l
        ON l.incident_id = e.incident_id AND l.table_name = e.table_name
          AND l.row_key = e.row_key
      WHERE e.change_set_id = ?1 AND l.change_set_id > ?1 AND l.change_set_id IS NOT ?2
      ORDER BY 1
      """)
    try rows.bind([id, excluded])
    var ids: [Int64] = []
    while let row = try rows.nextRow() { ids.append(try row.int64("change_set_id")) }
    return ids
  }

  /// The changes of one change set, in the order they were recorded.
  ///
  /// - Throws: ``CaseError/historyDisagrees(_:)`` for an entry of a table, column, key or
  ///   operation the history does not record (a history changed by hand).
  func recordedEntries(of changeSet: Int64) throws -> [RecordedEntry] {
    var entries: [RecordedEntry] = []
    try Self.forEachRecordedEntry(database.connection, where: "e.change_set_id = ?", [changeSet]) {
      entries.append($0)
    }
    return entries
  }

  /// Hands `body` each recorded change whose entry matches `condition` (over
  /// `history_entries e`), one at a time, in change set order and, within a change set, in
  /// the order they were recorded: a prune's baseline keeps the id of the change sets it
  /// replaces but its entries are newer than the change sets after it.
  ///
  /// - Throws: ``CaseError/historyDisagrees(_:)`` for an entry of a table, column, key or
  ///   operation the history does not record (a history changed by hand); `SQLiteError`.
  static func forEachRecordedEntry(
    _ connection: Connection, where condition: String, _ arguments: [any SQLiteBindable],
    _ body: (RecordedEntry) throws -> Void
  ) throws {
    let rows = try connection.cachedStatement(
      """
      SELECT e.id, e.change_set_id, e.table_name, e.row_key, e.operation, v.column_name,
        v.before_value, v.after_value
      FROM history_entries e LEFT JOIN history_values v ON v.entry_id = e.id
      WHERE \(condition) ORDER BY e.change_set_id, e.id, v.ordinal
      """)
    try rows.bind(arguments)
    var entryID: Int64?
    var pending:
      (
        id: Int64, changeSet: Int64, table: RecordedTable, key: [String: SQLiteValue],
        operation: Operation
      )?
    var before: [(column: String, value: SQLiteValue)] = []
    var after: [(column: String, value: SQLiteValue)] = []
    func flush() throws {
      if let pending {
        try body(
          RecordedEntry(
            id: pending.id, changeSet: pending.changeSet, table: pending.table, key: pending.key,
            operation: pending.operation, before: before, after: after))
      }
      before = []
      after = []
    }
    while let row = try rows.nextRow() {
      let id = try row.int64("id")
      if id != entryID {
        try flush()
        entryID = id
        let tableName = try row.text("table_name")
        guard let table = RecordedTable.named(tableName),
          let operation = Operation(rawValue: try row.text("operation"))
        else { throw CaseError.historyDisagrees("history entry \(id) names table \(tableName)") }
        var key: [String: SQLiteValue] = [:]
        for (column, value) in Self.key(try row.text("row_key")) {
          guard case .integer(let number) = value else { continue }
          key[column] = .integer(number)
        }
        guard table.key.allSatisfy({ key[$0] != nil }) else {
          throw CaseError.historyDisagrees("history entry \(id) has no key of \(tableName)")
        }
        pending = (id, try row.int64("change_set_id"), table, key, operation)
      }
      guard let column = try row.optionalText("column_name") else { continue }
      guard pending?.table.columns.contains(column) == true else {
        throw CaseError.historyDisagrees("history entry \(id) names column \(column)")
      }
      before.append((column, try row.value("before_value")))
      after.append((column, try row.value("after_value")))
    }
    try flush()
  }

  // MARK: - Reverting

  /// Reverts one change against the live rows.
  private func revert(_ entry: RecordedEntry) throws {
    let connection = database.connection
    let table = entry.table
    let keyValues: [any SQLiteBindable] = table.key.map { entry.key[$0] ?? .null }
    let place = "\(table.name) \(table.keyText(entry.key) ?? "")"
    switch entry.operation {
    case .insert:
      try connection.execute(
        "DELETE FROM \"\(table.name)\" WHERE \(table.keyCondition)", keyValues)
      guard connection.changes == 1 else {
        throw CaseError.historyDisagrees("\(place) to remove is not there")
      }
    case .delete:
      let columns = entry.before.map { "\"\($0.column)\"" }.joined(separator: ", ")
      let marks = Array(repeating: "?", count: entry.before.count).joined(separator: ", ")
      try connection.execute(
        "INSERT INTO \"\(table.name)\" (\(columns)) VALUES (\(marks))",
        entry.before.map(\.value))
    case .update:
      guard !entry.before.isEmpty else { return }
      let assignments = entry.before.map { "\"\($0.column)\" = ?" }.joined(separator: ", ")
      try connection.execute(
        "UPDATE \"\(table.name)\" SET \(assignments) WHERE \(table.keyCondition)",
        entry.before.map(\.value) + keyValues)
      guard connection.changes == 1 else {
        throw CaseError.historyDisagrees("\(place) to restore is not there")
      }
    }
  }
}
