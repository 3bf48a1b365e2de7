/// The rows (a table and a key) that more than one change of the history names, gathered while
/// a pass reads every change once in id order
/// (``HistoryCheck/digestPass(_:latestFirst:repeatedLimit:)``): a split block Bloom filter of
/// the rows met so far, and each row it has met before, in the order met.
///
/// No row changed twice is missed (a Bloom filter has no false negatives); a few rows changed
/// once are listed as well (its false positives: about 1 in 1,000 rows at 16 bits a change,
/// more for a row that shares its block with many, such as a suspect with dozens of favourite
/// fruits), and the caller looks each listed row up. Memory: 2 bytes a change for the filter
/// (at most 16 MiB) and 32 bytes a listed row (at most 8 MiB by default). Once more rows are
/// listed than ``limit`` (histories that change rows again and again, where looking each up
/// costs more than one walk of the history), the list is dropped and ``overflowed`` set.
struct RepeatedRows {
  /// A row of a recorded table, as the history names it.
  struct Row: Hashable, Comparable {
    /// `history_changes.table_id`.
    let table: Int64
    /// `history_changes.key1`.
    let key1: Int64
    /// `history_changes.key2`, `nil` for a table with a one-column key.
    let key2: Int64?

    /// Table, then first key, then a missing second key before any, then the second key.
    static func < (left: Row, right: Row) -> Bool {
      (left.table, left.key1, left.key2 == nil ? 0 : 1, left.key2 ?? 0)
        < (right.table, right.key1, right.key2 == nil ? 0 : 1, right.key2 ?? 0)
    }
  }

  /// The rows met more than once (and the filter's few false positives), in the order of their
  /// second meeting (a row met three times is listed twice); empty once ``overflowed``.
  private(set) var rows: [Row] = []
  /// Whether more rows than ``limit`` were listed, so that the list was given up.
  private(set) var overflowed = false
  /// How many rows may be listed before the list is given up.
  let limit: Int

  /// The filter: blocks of eight 32-bit words; a row sets one bit in each word of its block.
  private var blocks: [SIMD8<UInt32>]

  /// The bits of a row within its block: its hash's low 32 bits times each salt, top 5 bits.
  private static let salts = SIMD8<UInt32>(
    0x47B6_137B, 0x4497_4D91, 0x8824_AD5B, 0xA2B7_289D,
    0x7054_95C7, 0x2DF1_424B, 0x9EFC_4947, 0x5C6B_FB31)

  /// The most changes a filter is made for: 8,388,608 (16 MiB). A larger history fills it
  /// past use, so the caller marks the latest changes first instead.
  static let capacity = 1 << 23

  /// The most rows listed by default: 262,144 (8 MiB).
  static let largestLimit = 1 << 18

  /// A filter for a history of about `changes` changes (16 bits a change, 2 bytes; at most
  /// 16 MiB, for ``capacity`` changes), listing at most `limit` rows (by default 1 in 32
  /// changes, at least 4,096 and at most ``largestLimit``).
  init(changes: Int, limit: Int? = nil) {
    let sized = min(max(changes, 0), Self.capacity)
    blocks = [SIMD8<UInt32>](repeating: .zero, count: max(1, sized / 16))
    self.limit = limit ?? min(max(4096, changes / 32), Self.largestLimit)
  }

  /// The rows listed, moved out (the list is left empty).
  mutating func takeRows() -> [Row] {
    defer { rows = [] }
    return rows
  }

  /// Meets a row: lists it when the filter has (probably) met it before, then marks it met.
  mutating func insert(_ row: Row) {
    guard !overflowed else { return }
    // Four consecutive first keys of a table share a block, and the next four the next block,
    // so that a table's rows met in key order (an import, a load) walk memory in order instead
    // of missing the cache at every row; the bits within the block hash the whole row.
    let start = UInt64(bitPattern: row.table) &* 0x9E37_79B9_7F4A_7C15
    let block = Int((UInt64(bitPattern: row.key1) >> 2 &+ start) % UInt64(blocks.count))
    let hash = Self.hash(row)
    let low = SIMD8<UInt32>(repeating: UInt32(truncatingIfNeeded: hash))
    let bits = SIMD8<UInt32>(repeating: 1) &<< ((low &* Self.salts) &>> 27)
    let met = blocks.withUnsafeMutableBufferPointer { blocks in
      let old = blocks[block]
      blocks[block] = old | bits
      return old & bits == bits
    }
    guard met else { return }
    rows.append(row)
    if rows.count > limit {
      overflowed = true
      rows = []
    }
  }

  /// A 64-bit hash of a row: SplitMix64's first output seeded by each field in turn, mixed
  /// with the hash so far.
  private static func hash(_ row: Row) -> UInt64 {
    func mix(_ value: UInt64) -> UInt64 {
      var generator = SplitMix64(seed: value)
      return generator.next()
    }
    let key2 = row.key2.map { UInt64(bitPattern: $0) } ?? 0xA5A5_A5A5_A5A5_A5A5
    return mix(mix(mix(UInt64(bitPattern: row.table)) ^ UInt64(bitPattern: row.key1)) ^ key2)
  }
}
