import SQLiteKit

extension CaseHistory {
  /// What ``CaseTransaction/pruneHistory(before:)`` did.
  public struct Prune: Sendable, Equatable {
    /// How many change sets were folded into the baseline (0: nothing was older).
    public let pruned: Int
    /// The baseline change set that now holds the rows alive then, or `nil` when none were.
    public let baseline: Int64?
    /// The change set that records the prune, or `nil` when nothing was pruned.
    public let changeSet: Int64?
  }

  /// Drops the history before a time (docs/history.md "Pruning") inside the caller's write
  /// unit of work: the change sets recorded before it are replaced by one baseline change set
  /// (the newest pruned one's id and time, note `history before TIME`) of inserts of the rows
  /// alive then (each row's latest change up to then, kept with its id), so undo of later
  /// change sets, `--as-of` from then on and `check` stay right.
  /// The prune itself is recorded as a change set with no changes (the unit's actor, its note
  /// or `history prune before TIME: N change set(s)`). What it keeps (the baseline and every
  /// later change set) is sealed anew, so the chain verifies after it; a chain that does not
  /// verify before it is refused, as resealing would hide the edit.
  ///
  /// - Parameter time: As ``utcTime(parsing:)`` reads it.
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)`` for a malformed time;
  ///   ``CaseError/historyDisagrees(_:)`` for a history changed by hand (its rows, or a sealed
  ///   change set, ``HistoryChain/verify(_:)``); `SQLiteError`.
  func prune(before time: String) throws -> Prune {
    let utc = try utcTime(parsing: time)
    let connection = database.connection
    let current = try currentChangeSet()
    guard
      let last = try connection.scalar(
        "SELECT max(id) FROM history_change_sets WHERE at < ? AND id IS NOT ?", [utc, current])?
        .integerValue
    else { return Prune(pruned: 0, baseline: nil, changeSet: nil) }
    let count = Int(
      try connection.scalar(
        "SELECT count(*) FROM history_change_sets WHERE id <= ?", [last])?.integerValue ?? 0)
    let at = try connection.scalar("SELECT at FROM history_change_sets WHERE id = ?", [last])
    // The chain must hold before the prune reseals what it keeps: resealing would hide an
    // edit made by hand (docs/history.md "Tamper evidence").
    if let fault = try HistoryChain.verify(connection).fault {
      throw CaseError.historyDisagrees(fault.message + " (inspector history --verify)")
    }
    // The baseline: each row's latest change up to `last`, unless it is a delete, becomes an
    // insert of change set `last`; every other change up to it goes. The kept changes keep
    // their ids, so ids still ascend with change sets, and the baseline's range starts at the
    // first of them.
    let bound = try Self.lastChange(connection, upTo: last)
    try connection.execute(
      """
      DELETE FROM history_changes
      WHERE id <= ?1 AND (operation = 0 OR id <> (SELECT max(p.id) FROM history_changes AS p
        WHERE p.table_id = history_changes.table_id AND p.key1 = history_changes.key1
          AND p.key2 IS history_changes.key2 AND p.id <= ?1))
      """, [bound])
    try connection.execute(
      "UPDATE history_changes SET operation = 1 WHERE id <= ? AND operation <> 1", [bound])
    let hasRows =
      try connection.scalar("SELECT 1 FROM history_changes WHERE id <= ? LIMIT 1", [bound])
      != nil
    try connection.execute("DELETE FROM history_change_sets WHERE id <= ?", [last])
    // The baseline and every later change set are sealed anew before the unit commits.
    try HistoryChain.removeSeals(connection)
    if hasRows {
      try connection.execute(
        """
        INSERT INTO history_change_sets (id, at, actor, note, grouping, first_change_id)
        VALUES (?, ?, NULL, ?, 'transaction', (SELECT min(id) FROM history_changes))
        """, [last, at, "history before \(utc)"])
    }
    // A change set that holds no change may have opened after changes that the prune
    // dropped (the newest deletes): its first change comes back to the next change's id, so
    // that the bounds still ascend (docs/history.md "The tables").
    try connection.execute(
      """
      UPDATE history_change_sets SET first_change_id = \(ChangeSetBounds.nextChangeID)
      WHERE first_change_id > \(ChangeSetBounds.nextChangeID)
      """)
    // The unit's own change set carries its attribution (``CaseDatabase/write(_:_:)``).
    let attribution = try connection.prepare(
      "SELECT actor, note FROM history_change_sets WHERE id = ?")
    try attribution.bind([current])
    let row = try attribution.nextRow()
    let actor = try row.flatMap { try $0.optionalText("actor") }
    let note =
      try row.flatMap { try $0.optionalText("note") }
      ?? "history prune before \(utc): \(count) change set(s)"
    try connection.execute(
      """
      INSERT INTO history_change_sets (at, actor, note, grouping, first_change_id)
      VALUES (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?, ?, 'transaction',
        \(ChangeSetBounds.nextChangeID))
      """, [actor, note])
    return Prune(
      pruned: count, baseline: hasRows ? last : nil, changeSet: connection.lastInsertRowID)
  }
}
