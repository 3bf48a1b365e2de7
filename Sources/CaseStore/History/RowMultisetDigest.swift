import SQLiteKit

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

  /// Adds the row that `statement` is on, made of the values in `columns`, read where SQLite
  /// holds them (``Statement/rawValue(at:)``).
  mutating func add(_ statement: Statement, _ columns: [Int]) {
    add(Self.digest(count: columns.count) { statement.rawValue(at: columns[$0]) })
  }

  /// Adds the row of a change's key and values (``slots``), from the values a read of the
  /// history holds (``StoredValues/Raw``, in ``StoredValues/order``).
  mutating func add(change values: StoredValues.Raw) {
    add(Self.digest(change: values))
  }

  /// Takes back a row that ``add(change:)`` added: the digest is then that of the multiset
  /// without it.
  mutating func remove(change values: StoredValues.Raw) {
    let digest = Self.digest(change: values)
    count -= 1
    sum &-= digest
    squares &-= digest &* digest
  }

  private mutating func add(_ digest: UInt64) {
    count += 1
    sum &+= digest
    squares &+= digest &* digest
  }

  /// Where each of ``slots`` is among a change's values (``StoredValues/order``).
  private static let changeSlots = InlineArray<8, Int> {
    StoredValues.order.firstIndex(of: slots[$0])!
  }

  /// The digest of a change's ``slots``.
  private static func digest(change values: StoredValues.Raw) -> UInt64 {
    let positions = changeSlots
    return digest(count: positions.count) { values[positions[$0]] }
  }

  /// A row's digest: each of its `count` values (`value(i)`, in order) fed to a `Hasher` as a
  /// tag byte, then its 8 bytes (an integer, or a real's bits) or its length and bytes.
  private static func digest(count: Int, _ value: (Int) -> Statement.RawValue) -> UInt64 {
    var hasher = Hasher()
    for index in 0..<count {
      switch value(index) {
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
    return UInt64(UInt(bitPattern: hasher.finalize()))
  }
}
