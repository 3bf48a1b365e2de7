import SQLiteKit

/// Where change sets' changes lie in `history_changes`. A change does not name its change set:
/// each change set takes, when it opens, the id the next change will take
/// (`history_change_sets.first_change_id`, ``nextChangeID``), and ids ascend with change sets
/// (docs/history.md "The tables"), so the changes of change set `c` are exactly those with an id
/// in `firstChange(from: c) ..< firstChange(from: c + 1)`.
///
/// Each bound is one seek of `history_change_sets`. A change set whose `first_change_id` is
/// NULL (set so by hand) holds no changes: its changes are read as the earlier change set's.
/// A history edited by hand so that the bounds no longer ascend is read as the bounds say; the
/// hash chain reports such an edit (``HistoryChain/verify(_:)``).
struct ChangeSetBounds {
  let connection: Connection

  /// The SQL expression for the id the next change will take, which a change set opening
  /// stores as its `first_change_id`: one past the greatest id of `history_changes`, `1` for
  /// an empty history (the ids are an `INTEGER PRIMARY KEY`, which SQLite numbers so).
  static let nextChangeID = "(SELECT coalesce(max(id), 0) + 1 FROM history_changes)"

  /// The SQL expression for the change set that holds the change whose id is `changeID` (an
  /// expression such as `h.id`): the one with the greatest `first_change_id` at or before it,
  /// the newest of those when several share it (the others are empty). One seek of
  /// `history_change_sets_first_change`. NULL for a change before every change set.
  static func changeSet(of changeID: String) -> String {
    """
    (SELECT s.id FROM history_change_sets AS s WHERE s.first_change_id <= \(changeID)
      ORDER BY s.first_change_id DESC, s.id DESC LIMIT 1)
    """
  }

  /// The id of the first change of change set `changeSet` or of a later one; one past the
  /// greatest id when there is none (`1` for an empty history).
  ///
  /// - Throws: `SQLiteError`.
  func firstChange(from changeSet: Int64) throws -> Int64 {
    let statement = try connection.cachedStatement(
      """
      SELECT first_change_id FROM history_change_sets
      WHERE id >= ? AND first_change_id IS NOT NULL ORDER BY id LIMIT 1
      """)
    try statement.bind([changeSet])
    guard try statement.step() else { return try endOfChanges() }
    return statement.int64(at: 0)
  }

  /// The ids of change set `changeSet`'s changes: `firstChange(from: changeSet) ..<
  /// firstChange(from: changeSet + 1)`, empty when it holds none (or when the bounds, edited
  /// by hand, do not ascend there).
  ///
  /// - Throws: `SQLiteError`.
  func changes(of changeSet: Int64) throws -> Range<Int64> {
    let start = try firstChange(from: changeSet)
    return start..<max(start, try firstChange(from: changeSet + 1))
  }

  /// One past the greatest change id (`1` for an empty history).
  ///
  /// - Throws: `SQLiteError`.
  func endOfChanges() throws -> Int64 {
    let statement = try connection.cachedStatement("SELECT max(id) FROM history_changes")
    guard try statement.step(), !statement.isNull(at: 0) else { return 1 }
    return statement.int64(at: 0) + 1
  }
}
