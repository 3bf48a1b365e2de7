import SQLiteKit

/// A set of suspect ids within one dense range, one bit per id: the ranking's clue sets
/// (docs/ranking.md "The top-k plan").
///
/// Covers the ids `base ..< base + span`; ids outside the range are never members (``insert(_:)``
/// ignores them). Memory is `span / 8` bytes, so the ranking builds one only for a span of at most
/// ``ClueSets/maximumSpan`` ids.
struct IDBitset {
  /// The smallest id the set can hold.
  let base: Int64
  /// How many ids the set covers: `base ..< base + span`.
  let span: Int
  /// One bit per id: bit `b` of word `w` stands for the id `base + 64 * w + b`.
  private(set) var words: [UInt64]

  /// An empty set for the ids `base ..< base + span` (`span` at least 0).
  init(base: Int64, span: Int) {
    self.base = base
    self.span = span
    words = [UInt64](repeating: 0, count: (span + 63) / 64)
  }

  /// The full set of the ids `base ..< base + span` (`span` at least 0).
  init(base: Int64, filled span: Int) {
    self.init(base: base, span: span)
    for index in words.indices { words[index] = ~0 }
    if span % 64 != 0, !words.isEmpty { words[words.count - 1] = (1 << UInt64(span % 64)) - 1 }
  }

  /// Adds the ids `sql` selects (its first column) on `connection`; ids outside the range are
  /// ignored.
  ///
  /// Each statement of the ranking selects one id: a rowid or an INTEGER column of a STRICT
  /// table, so an integer whatever other clients wrote. SQLite sets the bits itself, through
  /// the aggregate `Connection.bitsetFunction` over `sql` as a common table expression (which
  /// SQLite flattens, keeping its plan), so the ids are not handed over one row at a time.
  ///
  /// - Throws: `SQLiteError` when `sql` cannot be prepared or run.
  mutating func insert(
    selectedBy sql: String, _ parameters: [any SQLiteBindable], on connection: Connection
  ) throws {
    try connection.collectIntegers(
      "WITH selected(id) AS (\(sql)) SELECT \(Connection.bitsetFunction)(id) FROM selected",
      parameters, base: base, into: &words)
  }

  /// Adds every id of `other`, a set over the same range.
  mutating func formUnion(_ other: IDBitset) {
    precondition(other.base == base && other.span == span, "sets over different ranges")
    for index in words.indices { words[index] |= other.words[index] }
  }

  /// Adds `id`; an id outside the range is ignored.
  mutating func insert(_ id: Int64) {
    let offset = id &- base
    guard offset >= 0, offset < Int64(words.count) * 64 else { return }
    words[Int(offset >> 6)] |= 1 << UInt64(offset & 63)
  }

  /// `true` when `id` is in the set.
  func contains(_ id: Int64) -> Bool {
    let offset = id &- base
    guard offset >= 0, offset < Int64(words.count) * 64 else { return false }
    return words[Int(offset >> 6)] & (1 << UInt64(offset & 63)) != 0
  }

  /// The ids of the set bits of `word`, the word at `index`, in ascending order.
  func ids(in word: UInt64, at index: Int) -> [Int64] {
    var ids: [Int64] = []
    var rest = word
    while rest != 0 {
      ids.append(base + Int64(index) * 64 + Int64(rest.trailingZeroBitCount))
      rest &= rest - 1
    }
    return ids
  }
}
