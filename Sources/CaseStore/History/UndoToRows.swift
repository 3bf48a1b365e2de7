import SQLiteKit

/// The rows an `undo --to` restores (``CaseHistory/undo(to:)``), each once, in a temporary
/// table of the connection (`temp.undo_to_rows`): SQLite keeps them in its temporary storage,
/// which spills to a file, so an undo over millions of changes holds none of them in memory.
/// Each row is kept with the order it was first met in and, once classified, what the undo
/// does to it.
struct UndoToRows {
  /// What the undo does to a row: nothing, or remove, update or insert it.
  enum Action: Int64 {
    case none = 0
    case removal = 1
    case update = 2
    case insertion = 3
  }

  let connection: Connection

  /// Creates the empty table (replacing one a failed run left).
  ///
  /// - Throws: `SQLiteError`.
  init(_ connection: Connection) throws {
    self.connection = connection
    try connection.execute(
      """
      DROP TABLE IF EXISTS temp.undo_to_rows;
      CREATE TABLE temp.undo_to_rows (
        seq INTEGER PRIMARY KEY, table_id INTEGER NOT NULL, key1 INTEGER NOT NULL,
        key2 INTEGER, action INTEGER NOT NULL DEFAULT 0);
      CREATE UNIQUE INDEX temp.undo_to_rows_key ON undo_to_rows (table_id, key1, ifnull(key2, 0));
      CREATE INDEX temp.undo_to_rows_action ON undo_to_rows (action, seq);
      """)
  }

  /// Drops the table.
  func drop() {
    try? connection.execute("DROP TABLE IF EXISTS temp.undo_to_rows")
  }

  /// Adds each row a change set changed (its changes are the ids in `range`,
  /// ``ChangeSetBounds/changes(of:)``) that is not there yet, in the order of its first change.
  /// A table's rows have one key column or two, never both, so `ifnull(key2, 0)` tells every
  /// row apart.
  ///
  /// - Throws: `SQLiteError`.
  func add(changedIn range: Range<Int64>) throws {
    try connection.cachedStatement(
      "INSERT OR IGNORE INTO temp.undo_to_rows (table_id, key1, key2) "
        + CaseHistory.rowsChangedQuery
    ).run([range.lowerBound, range.upperBound])
  }

  /// Sets each row's action to what `decide` says, reading the rows in order.
  ///
  /// - Throws: ``CaseError/historyDisagrees(_:)`` for a table the history does not record;
  ///   `SQLiteError`; what `decide` throws.
  func classify(
    _ decide: (RecordedTable, [String: SQLiteValue]) throws -> Action
  ) throws {
    let rows = try connection.prepare(
      "SELECT seq, table_id, key1, key2 FROM temp.undo_to_rows ORDER BY seq")
    let update = try connection.cachedStatement(
      "UPDATE temp.undo_to_rows SET action = ? WHERE seq = ?")
    while try rows.step() {
      let (table, key) = try RecordedTable.row(in: rows, from: 1)
      let action = try decide(table, key)
      if action != .none { try update.run([action.rawValue, rows.int64(at: 0)]) }
    }
  }

  /// Hands `body` each row whose action is `action`, in the order that action needs: a removal
  /// of children before their parents, an update or insertion of parents first (the tables in
  /// ``RecordedTable/all`` order, reversed for removals), and within a table in the order the
  /// rows were first met.
  ///
  /// - Throws: ``CaseError/historyDisagrees(_:)``; `SQLiteError`; what `body` throws.
  func forEach(
    _ action: Action, _ body: (RecordedTable, [String: SQLiteValue]) throws -> Void
  ) throws {
    let rank =
      "CASE table_id "
      + RecordedTable.all.enumerated().map { "WHEN \($0.element.historyID) THEN \($0.offset)" }
      .joined(separator: " ") + " END"
    let rows = try connection.prepare(
      """
      SELECT table_id, key1, key2 FROM temp.undo_to_rows WHERE action = ?
      ORDER BY \(rank)\(action == .removal ? " DESC" : ""), seq
      """)
    try rows.bind([action.rawValue])
    while try rows.step() {
      let (table, key) = try RecordedTable.row(in: rows, from: 0)
      try body(table, key)
    }
  }
}
