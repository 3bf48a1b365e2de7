import SQLiteKit

/// The ids of the changes that are the latest of their row (table and key), as a bitmap, for
/// ``HistoryCheck/findingsWithChain(_:)``.
struct LatestChanges {
  /// The largest id a bitmap is made for (16 MiB of bits); beyond it the caller reads the
  /// history the slower way, which needs no memory per change.
  static let largestID: Int64 = 128 * 1024 * 1024

  private var words: [UInt64]

  /// One walk of `history_changes_row`: each row's greatest change id. `nil` when an id of
  /// `range` (the smallest and greatest, ``HistoryCheck/changeIDs(_:)``) is negative or past
  /// ``largestID``.
  ///
  /// - Throws: `SQLiteError`.
  init?(_ connection: Connection, _ range: (first: Int64, last: Int64)) throws {
    let (smallest, largest) = range
    guard smallest >= 0, largest <= Self.largestID else { return nil }
    words = [UInt64](repeating: 0, count: Int(largest / 64) + 1)
    let ids = try connection.prepare(
      """
      SELECT max(id) FROM history_changes INDEXED BY history_changes_row
      GROUP BY table_id, key1, key2
      """)
    while try ids.step() {
      let id = ids.int64(at: 0)
      words[Int(id / 64)] |= 1 << UInt64(id % 64)
    }
  }

  /// Whether `id` is a row's latest change; clears it, so that a change read twice (which the
  /// history's read never does) counts once.
  mutating func remove(_ id: Int64) -> Bool {
    guard id >= 0, Int(id / 64) < words.count else { return false }
    let bit: UInt64 = 1 << UInt64(id % 64)
    let word = Int(id / 64)
    guard words[word] & bit != 0 else { return false }
    words[word] &= ~bit
    return true
  }
}
