import SQLiteKit

// What undo's walk and its value-based rule read from the history (docs/history.md "Undo"):
// every read of the history's own tables that `CaseHistory+UndoStack.swift` makes is here, so
// that a new layout of the history replaces these functions and nothing else.

extension CaseHistory {
  /// How a change set stands in the undo stack: what it reverted, if anything.
  enum RevertKind: String, Sendable, Equatable {
    /// An undo (`undo`, `undo ID` or `undo --to ID`): it reverted earlier change sets.
    case undo
    /// A redo: it reverted an undo.
    case redo
  }

  /// One change set as undo's walk reads it.
  struct StackedChangeSet: Equatable {
    /// Its id.
    let id: Int64
    /// Whether it recorded any change (a prune's record holds none).
    let holdsChanges: Bool
    /// Whether it is on the undo stack: it recorded a change, or it is an undo or redo (one
    /// whose reverted change sets' rows already stood as it wrote them records no change).
    var isStacked: Bool { holdsChanges || kind != nil }
    /// `nil` for an ordinary change set; otherwise whether it is an undo or a redo.
    let kind: RevertKind?
    /// The change sets it reverted (`history_reverts`), ascending; empty when ``kind`` is `nil`.
    let reverted: [Int64]
  }

  /// Hands `body` every change set but `excluded` (the running unit's own), newest first, with
  /// what it reverted, until `body` returns `false`. Reads one change set at a time.
  ///
  /// - Throws: `SQLiteError`, or what `body` throws.
  func forEachChangeSetNewestFirst(
    excluding excluded: Int64?, _ body: (StackedChangeSet) throws -> Bool
  ) throws {
    let rows = try database.connection.prepare(
      """
      SELECT c.id, r.kind, r.reverted_change_set_id
      FROM history_change_sets c LEFT JOIN history_reverts r ON r.change_set_id = c.id
      WHERE c.id IS NOT ?
      ORDER BY c.id DESC, r.reverted_change_set_id
      """)
    try rows.bind([excluded])
    let bounds = ChangeSetBounds(connection: database.connection)
    /// Whether change set `id` holds a change.
    func holdsChanges(_ id: Int64) throws -> Bool {
      !(try bounds.changes(of: id).isEmpty)
    }
    var pending: (id: Int64, holdsChanges: Bool, kind: RevertKind?, reverted: [Int64])?
    func flush() throws -> Bool {
      guard let set = pending else { return true }
      pending = nil
      return try body(
        StackedChangeSet(
          id: set.id, holdsChanges: set.holdsChanges, kind: set.kind, reverted: set.reverted))
    }
    while let row = try rows.nextRow() {
      let id = try row.int64("id")
      if pending?.id != id {
        guard try flush() else { return }
        let kind = try row.optionalText("kind")
        guard kind == nil || RevertKind(rawValue: kind ?? "") != nil else {
          throw CaseError.historyDisagrees(
            "history_reverts of change set \(id) names \(kind ?? "")")
        }
        pending = (id, try holdsChanges(id), kind.flatMap(RevertKind.init), [])
      }
      if let reverted = try row.optionalInt64("reverted_change_set_id") {
        pending?.reverted.append(reverted)
      }
    }
    _ = try flush()
  }

  /// Records that the running unit's change set `changeSet` reverted `reverted` (as an undo or
  /// a redo), or every change set after `after` and before `changeSet` when `after` is given.
  ///
  /// - Throws: `SQLiteError`.
  func recordReverts(
    by changeSet: Int64, kind: RevertKind, _ reverted: [Int64] = [], after: Int64? = nil
  ) throws {
    let connection = database.connection
    database.changeSetRecordsReverts = true
    for id in reverted {
      try connection.execute(
        """
        INSERT OR IGNORE INTO history_reverts (change_set_id, reverted_change_set_id, kind)
        VALUES (?, ?, ?)
        """, [changeSet, id, kind.rawValue])
    }
    if let after {
      try connection.execute(
        """
        INSERT OR IGNORE INTO history_reverts (change_set_id, reverted_change_set_id, kind)
        SELECT ?1, id, ?2 FROM history_change_sets WHERE id > ?3 AND id < ?1
        """, [changeSet, kind.rawValue, after])
    }
  }

  /// The rows that change set `changeSet` changed and a later change set (other than
  /// `excluded`) changed too, each once: its table and key. Rows are matched by table and key,
  /// through the index of each row's changes (`history_changes_row`).
  ///
  /// - Throws: ``CaseError/historyDisagrees(_:)`` for a change of a table the history does
  ///   not record; `SQLiteError`.
  func rowsChangedLater(
    than changeSet: Int64, excluding excluded: Int64?
  ) throws -> [(table: RecordedTable, key: [String: SQLiteValue])] {
    let bounds = ChangeSetBounds(connection: database.connection)
    let range = try bounds.changes(of: changeSet)
    // Every change after the range belongs to a later change set; those of `excluded` are
    // one range too.
    let skipped = try excluded.map { try bounds.changes(of: $0) } ?? 0..<0
    let rows = try database.connection.prepare(
      """
      SELECT DISTINCT e.table_id, e.key1, e.key2 FROM history_changes AS e
      WHERE e.id >= ?1 AND e.id < ?2
        AND EXISTS (SELECT 1 FROM history_changes AS l
        WHERE l.table_id = e.table_id AND l.key1 = e.key1 AND l.key2 IS e.key2
          AND l.id >= ?2 AND NOT (l.id >= ?3 AND l.id < ?4))
      """)
    try rows.bind([range.lowerBound, range.upperBound, skipped.lowerBound, skipped.upperBound])
    var found: [(table: RecordedTable, key: [String: SQLiteValue])] = []
    while try rows.step() {
      found.append(try RecordedTable.row(in: rows, from: 0))
    }
    return found
  }

  /// The change sets after `changeSet` (other than `excluded`) that changed the row of `table`
  /// with `key`, ascending.
  ///
  /// - Throws: `SQLiteError`.
  func changeSets(
    touching table: RecordedTable, key: [String: SQLiteValue], after changeSet: Int64,
    excluding excluded: Int64?
  ) throws -> [Int64] {
    let values = table.key.map { key[$0] ?? .null }
    let rows = try database.statement(
      """
      SELECT DISTINCT change_set_id FROM (
        SELECT \(ChangeSetBounds.changeSet(of: "h.id")) AS change_set_id FROM history_changes AS h
        WHERE table_id = ? AND key1 = ? AND key2 IS ? AND id >= ?)
      WHERE change_set_id IS NOT ?
      ORDER BY 1
      """)
    try rows.bind([
      Int64(table.historyID), values.first ?? .null, values.count > 1 ? values[1] : .null,
      try ChangeSetBounds(connection: database.connection).firstChange(from: changeSet + 1),
      excluded,
    ])
    var ids: [Int64] = []
    while let row = try rows.nextRow() { ids.append(try row.int64("change_set_id")) }
    return ids
  }
}
