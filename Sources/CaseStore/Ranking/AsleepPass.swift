import SQLiteKit
import Synchronization

/// The clue sets' pass over `sleep_schedules` (who is asleep at the incident's clock time), cut
/// into ``chunkCount`` ranges of ids that the ranking's two connections take in turn
/// (docs/ranking.md "The top-k plan").
///
/// The second connection (`Connection.readingInParallel`) starts on the chunks at once; the
/// ranking's own connection first reads the other clue sets, then takes the chunks left. So
/// the two share the longest pass however long the others take. Each chunk is a range of whole
/// bitset words, so the two sets never hold the same id and their union is the whole set.
final class AsleepPass: Sendable {
  /// How many chunks the pass is cut into: enough that the two connections finish within a
  /// chunk of each other (about 60,000 ids each at 1,000,000 suspects).
  static let chunkCount = 16

  /// The incident's clock time, `HH:MM`.
  let time: String
  /// The next chunk not yet taken.
  private let nextChunk = Atomic<Int>(0)

  /// A pass for the clock time `time` (`HH:MM`), no chunk taken yet.
  init(time: String) {
    self.time = time
  }

  /// The second connection's share: reads chunks on `connection` until none is left, over the
  /// id range it reads itself (the same as the ranking's, in the same snapshot). An empty set
  /// over no ids, and no chunk taken, when the clue sets are not built (no suspects, or ids
  /// spread over more than ``ClueSets/maximumSpan`` values): it covers other ids than any
  /// clue sets, which therefore never use it.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  func partnerShare(on connection: Connection) throws -> IDBitset {
    guard let (low, span) = try ClueSets.idRange(on: connection) else {
      return IDBitset(base: 0, span: 0)
    }
    var set = IDBitset(base: low, span: span)
    _ = try readChunksLeft(on: connection, into: &set)
    return set
  }

  /// Reads on `connection` the chunks not yet taken, into `set` (whose range is the pass's).
  ///
  /// - Returns: The chunks read, in ascending order.
  /// - Throws: `SQLiteError` when the database cannot be read.
  func readChunksLeft(on connection: Connection, into set: inout IDBitset) throws -> [Int] {
    var read: [Int] = []
    while case let chunk = nextChunk.wrappingAdd(1, ordering: .relaxed).oldValue,
      chunk < Self.chunkCount
    {
      try self.read(chunk: chunk, on: connection, into: &set)
      read.append(chunk)
    }
    return read
  }

  /// Reads the chunk `chunk` (0 ..< ``chunkCount``) into `set` on `connection`.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  func read(chunk: Int, on connection: Connection, into set: inout IDBitset) throws {
    let words = set.words.count
    let (first, end) = (chunk * words / Self.chunkCount, (chunk + 1) * words / Self.chunkCount)
    guard first < end else { return }
    // Whole words from `first` up to `end`: ids base + 64 * first ... base + 64 * end - 1, the
    // last clamped to the range's highest id, so that no sum overflows.
    let low = set.base + Int64(first) * 64
    let high = set.base + (Int64(min(end * 64, set.span)) - 1)
    try set.insert(selectedBy: Self.chunkSQL, [time, low, high], on: connection)
  }

  /// The suspects of ``ClueSets/asleepCondition`` among the ids `?2 ... ?3`, the rowid range of
  /// one chunk.
  static let chunkSQL = """
    SELECT animal_id FROM sleep_schedules NOT INDEXED
    WHERE animal_id BETWEEN ?2 AND ?3 AND (\(ClueSets.asleepCondition))
    """
}
