import SQLiteKit

/// Where change sets' changes lie in `history_changes`, found without an index on
/// `change_set_id`: ids ascend with change sets (every change of a change set has a higher id
/// than every change of an earlier one, docs/history.md "The tables"), so `change_set_id` never
/// decreases as `id` grows, and the changes of change set `c` are exactly those with an id in
/// `firstChange(from: c) ..< firstChange(from: c + 1)`.
///
/// Each bound is a binary search over the ids, a probe being one seek of the table's own
/// b-tree: about log2(changes) seeks, some 23 for six million changes. A history edited by
/// hand so that `change_set_id` decreases somewhere is read as far as the searches find it;
/// the hash chain reports such an edit (``HistoryChain/verify(_:)``).
struct ChangeSetBounds {
  let connection: Connection

  /// The id of the first change of change set `changeSet` or of a later one; one past the
  /// greatest id when there is none (`1` for an empty history).
  ///
  /// - Parameter below: An id known to lie at or after the answer (one past the last id to
  ///   search), such as the first change of a later change set: the search then starts from
  ///   there and widens backwards, so that walking change sets newest first costs seeks in
  ///   proportion to the log of each one's size, not of the whole history.
  /// - Throws: `SQLiteError`.
  func firstChange(from changeSet: Int64, below: Int64? = nil) throws -> Int64 {
    let end = try below ?? endOfChanges()
    // Widen backwards from `end` until a change of an earlier change set is found: the
    // answer lies after it.
    // `answer` is the first change found so far of `changeSet` or later (or `end`).
    var answer = end
    var low: Int64 = 0
    var high = end
    var step: Int64 = 1
    while high > 1 {
      guard let found = try change(atOrBefore: max(high - step, 1)) else { break }
      if found.changeSet < changeSet {
        low = found.id + 1
        break
      }
      answer = found.id
      high = found.id
      step *= 2
    }
    // Binary search in low ..< high: every change before `low` belongs to an earlier change
    // set; from `high` on, none but `answer` and the changes after it.
    while low < high {
      let middle = low + (high - low) / 2
      guard let found = try change(atOrAfter: middle), found.id < high else {
        high = middle
        continue
      }
      if found.changeSet < changeSet {
        low = found.id + 1
      } else {
        answer = found.id
        high = found.id
      }
    }
    return answer
  }

  /// The ids of change set `changeSet`'s changes: `firstChange(from: changeSet) ..<
  /// firstChange(from: changeSet + 1)`, empty when it holds none.
  ///
  /// - Parameter below: As for ``firstChange(from:below:)``: walking change sets newest first,
  ///   the lower bound of the range found for the one read before.
  /// - Throws: `SQLiteError`.
  func changes(of changeSet: Int64, below: Int64? = nil) throws -> Range<Int64> {
    let end = try firstChange(from: changeSet + 1, below: below)
    return try firstChange(from: changeSet, below: end)..<end
  }

  /// One past the greatest change id (`1` for an empty history).
  ///
  /// - Throws: `SQLiteError`.
  func endOfChanges() throws -> Int64 {
    let statement = try connection.cachedStatement("SELECT max(id) FROM history_changes")
    guard try statement.step(), !statement.isNull(at: 0) else { return 1 }
    return statement.int64(at: 0) + 1
  }

  /// The change with the smallest id at or after `id`, if any.
  private func change(atOrAfter id: Int64) throws -> (id: Int64, changeSet: Int64)? {
    try change(
      "SELECT id, change_set_id FROM history_changes WHERE id >= ? ORDER BY id LIMIT 1", id)
  }

  /// The change with the greatest id at or before `id`, if any.
  private func change(atOrBefore id: Int64) throws -> (id: Int64, changeSet: Int64)? {
    try change(
      "SELECT id, change_set_id FROM history_changes WHERE id <= ? ORDER BY id DESC LIMIT 1", id)
  }

  /// The one change `query` (bound to `id`) finds: its id and change set.
  private func change(_ query: String, _ id: Int64) throws -> (id: Int64, changeSet: Int64)? {
    let statement = try connection.cachedStatement(query)
    try statement.bind([id])
    guard try statement.step() else { return nil }
    return (statement.int64(at: 0), statement.int64(at: 1))
  }
}
