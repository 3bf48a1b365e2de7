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
    let current = try currentChangeSet()
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
  /// (``expectRowsAsRecorded(undoing:)``) and before checking that no row is left naming a
  /// parent that is gone (``expectReferencesKept(undoing:)``). No conflict rule: the caller
  /// decides whether `target` may be reverted. Foreign keys are deferred to the commit.
  ///
  /// Streams: the changes are read and reverted one at a time (each with one seek for the
  /// row's previous change), so memory does not grow with the change set (an import of a
  /// million suspects is six million changes).
  ///
  /// - Returns: How many changes were reverted (0 for a change set without changes).
  /// - Throws: As ``undo(_:)`` does, but never ``CaseError/undoConflict(changeSet:later:)``.
  func revertChangeSet(_ target: Int64) throws -> Int {
    let connection = database.connection
    try connection.execute("PRAGMA defer_foreign_keys = ON")
    try expectRowsAsRecorded(undoing: target)
    let range = try ChangeSetBounds(connection: connection).changes(of: target)
    // Each revert is recorded by the triggers as a change with an id above every one of
    // target's, outside the range this statement reads.
    let changes = try connection.prepare(
      """
      SELECT \(StoredChange.columns()) FROM history_changes
      WHERE id >= ? AND id < ? ORDER BY id DESC
      """)
    try changes.bind([range.lowerBound, range.upperBound])
    var reverted = 0
    while let row = try changes.nextRow() {
      try revert(try recordedEntry(try StoredChange(row, at: 0, changeSet: target)))
      reverted += 1
    }
    try expectReferencesKept(undoing: target)
    return reverted
  }

  // MARK: - Entries

  /// One recorded change as undo and as-of views read it.
  struct RecordedEntry {
    /// The change's id (`history_changes.id`).
    let id: Int64
    /// The change set it belongs to, when its reader read it (``StoredChange/changeSet``).
    let changeSet: Int64?
    let table: RecordedTable
    /// The key columns and values (after the change; before it for a delete).
    let key: [String: SQLiteValue]
    /// Insert, update or delete, as people read it: an insert over a row the history holds
    /// (another client's REPLACE) is an update of that row.
    let operation: Operation
    /// The before values in column order: every recorded column of a delete (NULL for an
    /// insert), the changed ones of an update.
    let before: [(column: String, value: SQLiteValue)]
    /// The after values in column order: every recorded column of an insert (NULL for a
    /// delete), the changed ones of an update.
    let after: [(column: String, value: SQLiteValue)]
  }

  /// The ids of the change sets after `id` (other than `excluded`) that changed a row that
  /// change set `id` changed, ascending. Rows are matched by table and key, through the index
  /// of each row's changes (`history_changes_row`); a key change is a delete of the old key
  /// and an insert of the new one, so it touches both.
  func laterChangeSets(touchingRowsOf id: Int64, excluding excluded: Int64?) throws -> [Int64] {
    let range = try ChangeSetBounds(connection: database.connection).changes(of: id)
    // Every change after the range belongs to a later change set.
    let rows = try database.connection.prepare(
      """
      SELECT DISTINCT change_set_id FROM (
        SELECT \(ChangeSetBounds.changeSet(of: "l.id")) AS change_set_id
        FROM history_changes AS e JOIN history_changes AS l
          ON l.table_id = e.table_id AND l.key1 = e.key1 AND l.key2 IS e.key2
        WHERE e.id >= ?2 AND e.id < ?3 AND l.id >= ?3)
      WHERE change_set_id IS NOT ?1
      ORDER BY 1
      """)
    try rows.bind([excluded, range.lowerBound, range.upperBound])
    var ids: [Int64] = []
    while let row = try rows.nextRow() { ids.append(try row.int64("change_set_id")) }
    return ids
  }

  /// Hands `body` each change of one change set as undo reads it, in the order they were
  /// recorded, one at a time. `tableID`, when given, keeps the changes of that table only.
  ///
  /// - Throws: ``CaseError/historyDisagrees(_:)`` for a change of a table or operation the
  ///   history does not record (a history changed by hand); what `body` throws.
  func forEachRecordedEntry(
    of changeSet: Int64, tableID: Int? = nil, _ body: (RecordedEntry) throws -> Void
  ) throws {
    let range = try ChangeSetBounds(connection: database.connection).changes(of: changeSet)
    try Self.forEachStoredChange(
      database.connection,
      where: "id >= ? AND id < ?" + (tableID.map { " AND table_id = \($0)" } ?? ""),
      [range.lowerBound, range.upperBound], changeSet: changeSet
    ) {
      try body(try recordedEntry($0))
    }
  }

  /// Hands `body` each row change set `changeSet` changed (its table and key, as its changes
  /// name it), once, in the order of the row's first change in it. SQLite groups and orders
  /// the rows (its sorter, which spills to a temporary file past a few MiB), so memory does not
  /// grow with the change set.
  ///
  /// - Throws: ``CaseError/historyDisagrees(_:)`` for a table the history does not record;
  ///   `SQLiteError`; what `body` throws.
  func forEachRowChanged(
    by changeSet: Int64, _ body: (RecordedTable, [String: SQLiteValue]) throws -> Void
  ) throws {
    let range = try ChangeSetBounds(connection: database.connection).changes(of: changeSet)
    let rows = try database.connection.prepare(Self.rowsChangedQuery)
    try rows.bind([range.lowerBound, range.upperBound])
    while try rows.step() {
      let (table, key) = try RecordedTable.row(in: rows, from: 0)
      try body(table, key)
    }
  }

  /// The rows a change set changed, each once, in the order of their first change in it:
  /// `table_id`, `key1`, `key2`, for the change set's range of change ids (`?1 ..< ?2`).
  /// SQLite groups and orders them with its sorter.
  static let rowsChangedQuery = """
    SELECT table_id, key1, key2 FROM history_changes
    WHERE id >= ? AND id < ?
    GROUP BY table_id, key1, key2 ORDER BY min(id)
    """

  /// The first change of the row of `table` with `key` in change set `changeSet`, as undo
  /// reads it, or `nil` when it has none there: one seek of `history_changes_row`.
  ///
  /// - Throws: ``CaseError/historyDisagrees(_:)``; `SQLiteError`.
  func firstEntry(
    of table: RecordedTable, key: [String: SQLiteValue], in changeSet: Int64
  ) throws -> RecordedEntry? {
    let range = try ChangeSetBounds(connection: database.connection).changes(of: changeSet)
    let rows = try database.connection.cachedStatement(
      """
      SELECT \(StoredChange.columns()) FROM history_changes
      WHERE table_id = ? AND key1 = ? AND key2 IS ? AND id >= ? AND id < ?
      ORDER BY id LIMIT 1
      """)
    let values = table.key.map { key[$0] ?? .null }
    try rows.bind([
      Int64(table.historyID), values[0], values.count > 1 ? values[1] : .null, range.lowerBound,
      range.upperBound,
    ])
    guard let row = try rows.nextRow() else { return nil }
    return try recordedEntry(try StoredChange(row, at: 0, changeSet: changeSet))
  }

  /// Hands `body` each stored change that `condition` (over `history_changes`) selects, in
  /// the order the changes apply.
  ///
  /// - Parameter changeSet: The change set that holds every change `condition` selects, when
  ///   the caller knows it (a range of one change set's ids); otherwise each change's change
  ///   set is looked up (``ChangeSetBounds/changeSet(of:)``).
  /// - Throws: ``CaseError/historyDisagrees(_:)``; `SQLiteError`; what `body` throws.
  static func forEachStoredChange(
    _ connection: Connection, where condition: String, _ arguments: [any SQLiteBindable],
    changeSet: Int64? = nil, _ body: (StoredChange) throws -> Void
  ) throws {
    let columns = StoredChange.columns(changeSet: changeSet == nil)
    let rows = try connection.prepare(
      "SELECT \(columns) FROM history_changes WHERE \(condition) ORDER BY id")
    try rows.bind(arguments)
    while let row = try rows.nextRow() {
      try body(try StoredChange(row, at: 0, changeSet: changeSet))
    }
  }

  /// `change` as undo reads it: its before values from the row's previous change (one seek).
  func recordedEntry(_ change: StoredChange) throws -> RecordedEntry {
    recordedEntry(change, previous: try previousChange(of: change))
  }

  /// `change` as undo reads it, given the row's previous change (``previousChange(of:)``).
  func recordedEntry(_ change: StoredChange, previous previousChange: StoredChange?)
    -> RecordedEntry
  {
    let table = change.table
    let previous = previousChange?.row
    let after = change.row
    func listed(_ row: [String: SQLiteValue]?) -> [(column: String, value: SQLiteValue)] {
      table.columns.map { ($0, row?[$0] ?? change.keyValues[$0] ?? .null) }
    }
    func nulls() -> [(column: String, value: SQLiteValue)] {
      table.columns.map { ($0, .null) }
    }
    let operation: Operation
    var before: [(column: String, value: SQLiteValue)]
    var afterValues: [(column: String, value: SQLiteValue)]
    switch change.kind {
    case .delete:
      operation = .delete
      before = listed(previous)
      afterValues = nulls()
    case .insert where previous == nil:
      operation = .insert
      before = nulls()
      afterValues = listed(after)
    case .insert, .update:
      operation = .update
      let changed = table.columns.filter { column in
        previous.map { ($0[column] ?? .null) != (after?[column] ?? .null) } ?? true
      }
      before = changed.map { ($0, previous?[$0] ?? .null) }
      afterValues = changed.map { ($0, after?[$0] ?? .null) }
    }
    return RecordedEntry(
      id: change.id, changeSet: change.changeSet, table: table, key: change.keyValues,
      operation: operation, before: before, after: afterValues)
  }

  // MARK: - Reverting

  /// Reverts one change against the live rows, with statements from the connection's cache.
  private func revert(_ entry: RecordedEntry) throws {
    let connection = database.connection
    let table = entry.table
    let keyValues: [any SQLiteBindable] = table.key.map { entry.key[$0] ?? .null }
    var place: String { "\(table.name) \(table.keyText(entry.key) ?? "")" }
    switch entry.operation {
    case .insert:
      try writing(entry, "removed") {
        try database.statement(table.deleteRowStatement).run(keyValues)
      }
      guard connection.changes == 1 else {
        throw CaseError.historyDisagrees("\(place) to remove is not there")
      }
    case .delete:
      let columns = entry.before.map { "\"\($0.column)\"" }.joined(separator: ", ")
      let marks = Array(repeating: "?", count: entry.before.count).joined(separator: ", ")
      try writing(entry, "put back") {
        try database.statement("INSERT INTO \"\(table.name)\" (\(columns)) VALUES (\(marks))")
          .run(entry.before.map(\.value))
      }
    case .update:
      guard !entry.before.isEmpty else { return }
      let assignments = entry.before.map { "\"\($0.column)\" = ?" }.joined(separator: ", ")
      try writing(entry, "set back") {
        try database.statement(
          "UPDATE \"\(table.name)\" SET \(assignments) WHERE \(table.keyCondition)"
        ).run(entry.before.map(\.value) + keyValues)
      }
      guard connection.changes == 1 else {
        throw CaseError.historyDisagrees("\(place) to restore is not there")
      }
    }
  }

  /// Runs `write`, the statement that reverts `entry`. A constraint it breaks (another suspect
  /// now holds the species of the one being put back, say) is refused naming the row, with
  /// SQLite's message: `cannot undo change set 5: animals id 9 (Hugo the Hare) cannot be put
  /// back: UNIQUE constraint failed: animals.species_key`. The caller's transaction rolls back.
  ///
  /// - Throws: ``CaseError/undoBreaksReference(changeSet:problem:)`` for a constraint;
  ///   whatever else `write` throws.
  private func writing(_ entry: RecordedEntry, _ verb: String, _ write: () throws -> Void)
    throws
  {
    do {
      try write()
    } catch let error as SQLiteError where error.code == .constraint {
      // A suspect being put back is not there to be named: its recorded values name it.
      let row = try rowName(
        entry.table, entry.key,
        recorded: Dictionary(entry.before.map { ($0.column, $0.value) }) { first, _ in first })
      throw CaseError.undoBreaksReference(
        changeSet: entry.changeSet ?? 0, problem: "\(row) cannot be \(verb): \(error.message)")
    }
  }
}
