import SQLiteKit

extension HistoryCheck {
  /// `check`'s history findings (``findings(_:)``) and the chain's
  /// (``HistoryChain/findings(_:)``), in one read of the history (docs/history.md "Checking
  /// the history").
  ///
  /// The chain's pass reads every change anyway; the changes that are the latest of their row
  /// (a bitmap from one walk of `history_changes_row`) are folded there into each table's
  /// ``RowMultisetDigest``, and each live table into another in one scan. A table whose two
  /// digests are equal agrees; any other (or every table, when the chain has a fault and its
  /// pass stopped early, or the history's ids are too sparse for a bitmap) gets
  /// ``findings(_:tables:)``'s passes, which decide and name the rows. Runs in one read
  /// transaction when the caller has none open; memory: one bit per change id.
  ///
  /// - Returns: The history's findings, then the chain's.
  /// - Throws: `SQLiteError`, or ``CaseError/historyDisagrees(_:)`` from the passes that name
  ///   rows.
  static func findingsWithChain(_ connection: Connection) throws -> (
    history: [CheckFinding], chain: [CheckFinding]
  ) {
    let ownTransaction = connection.isAutocommit
    if ownTransaction { try connection.execute("BEGIN") }
    defer { if ownTransaction { try? connection.execute("COMMIT") } }
    guard let pass = try digestPass(connection) else {
      return (try findings(connection), try HistoryChain.findings(connection))
    }
    let chain = HistoryChain.findings(of: pass.verdict)
    guard let disagreeing = pass.disagreeing else { return (try findings(connection), chain) }
    return (try findings(connection, tables: disagreeing), chain)
  }

  /// The chain's verdict and the tables whose live rows and latest changes have different
  /// ``RowMultisetDigest``s, from one read of the history and one scan of each table, in the
  /// caller's transaction. `disagreeing` is `nil` when the chain has a fault (its read stopped
  /// there); the whole result is `nil` when the history's ids do not fit a bitmap.
  ///
  /// - Throws: `SQLiteError`.
  static func digestPass(_ connection: Connection) throws -> (
    verdict: HistoryChain.Verdict, disagreeing: [RecordedTable]?
  )? {
    guard var latest = try LatestChanges(connection) else { return nil }
    var history: [Int64: RowMultisetDigest] = [:]
    var unusual: Set<Int64> = []
    var layout: (table: Int, operation: Int, content: [Int])?
    let verdict = try HistoryChain.verify(connection) { stored in
      guard latest.remove(stored.changeID) else { return }
      let columns =
        layout
        ?? {
          let content = RowMultisetDigest.slots.map(stored.column)
          let found = (stored.column("table_id"), stored.column("operation"), content)
          layout = found
          return found
        }()
      let table = stored.statement.int64(at: columns.table)
      switch stored.statement.int64(at: columns.operation) {
      case 0: break
      case 1, 2: history[table, default: RowMultisetDigest()].add(stored.statement, columns.content)
      default: unusual.insert(table)
      }
    }
    guard verdict.fault == nil else { return (verdict, nil) }
    var disagreeing: [RecordedTable] = []
    for table in RecordedTable.all {
      let live = try RowMultisetDigest(of: table, connection)
      let id = Int64(table.historyID)
      if unusual.contains(id) || live != history[id, default: .init()] {
        disagreeing.append(table)
      }
    }
    return (verdict, disagreeing)
  }
}

/// The ids of the changes that are the latest of their row (table and key), as a bitmap, for
/// ``HistoryCheck/findingsWithChain(_:)``.
struct LatestChanges {
  /// The largest id a bitmap is made for (16 MiB of bits); beyond it the caller reads the
  /// history the slower way, which needs no memory per change.
  static let largestID: Int64 = 128 * 1024 * 1024

  private var words: [UInt64]

  /// One walk of `history_changes_row`: each row's greatest change id. `nil` when an id is
  /// negative or past ``largestID``.
  ///
  /// - Throws: `SQLiteError`.
  init?(_ connection: Connection) throws {
    let range = try connection.prepare("SELECT min(id), max(id) FROM history_changes")
    guard try range.step() else { return nil }
    let smallest = range.isNull(at: 0) ? 0 : range.int64(at: 0)
    let largest = range.isNull(at: 1) ? 0 : range.int64(at: 1)
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

/// An order-free digest of a multiset of rows, each row its values in their storage classes
/// and bytes: the count, and the wrapping sums of each row's salted 64-bit `Hasher` digest and
/// of its square. Equal multisets give equal digests; different ones equal digests only by a
/// collision of both sums. Valid within one process (`Hasher` is seeded per process).
struct RowMultisetDigest: Equatable {
  private var count: Int64 = 0
  private var sum: UInt64 = 0
  private var squares: UInt64 = 0

  /// The `history_changes` columns a row is digested from, in order: its key, then its values.
  static let slots = ["key1", "key2", "v1", "v2", "v3", "v4", "v5", "v6"]

  init() {}

  /// The digest of `table`'s live rows, each as its key then its recorded columns in the
  /// history's slots (`key1`, `key2`, `v1` ... `v6`; NULL where the table has none): one scan.
  ///
  /// - Throws: `SQLiteError`.
  init(of table: RecordedTable, _ connection: Connection) throws {
    let slots = Self.slots.map { slot in
      table.columns.first { table.storedColumn(of: $0) == slot }.map { "\"\($0)\"" } ?? "NULL"
    }
    let rows = try connection.prepare(
      "SELECT \(slots.joined(separator: ", ")) FROM \"\(table.name)\"")
    let columns = Array(0..<slots.count)
    while try rows.step() { add(rows, columns) }
  }

  static func == (left: RowMultisetDigest, right: RowMultisetDigest) -> Bool {
    left.count == right.count && left.sum == right.sum && left.squares == right.squares
  }

  /// Adds the row that `statement` is on, made of the values in `columns`: each value fed to
  /// the row's `Hasher` as a tag byte, then its 8 bytes (an integer, or a real's bits) or its
  /// length and bytes, read where SQLite holds them (``Statement/rawValue(at:)``).
  mutating func add(_ statement: Statement, _ columns: [Int]) {
    var hasher = Hasher()
    for column in columns {
      switch statement.rawValue(at: column) {
      case .null: hasher.combine(UInt8(0))
      case .integer(let number):
        hasher.combine(UInt8(1))
        hasher.combine(number)
      case .real(let number):
        hasher.combine(UInt8(2))
        hasher.combine(number.bitPattern)
      case .text(let bytes):
        hasher.combine(UInt8(3))
        hasher.combine(bytes.count)
        hasher.combine(bytes: bytes)
      case .blob(let bytes):
        hasher.combine(UInt8(4))
        hasher.combine(bytes.count)
        hasher.combine(bytes: bytes)
      }
    }
    let digest = UInt64(UInt(bitPattern: hasher.finalize()))
    count += 1
    sum &+= digest
    squares &+= digest &* digest
  }
}
