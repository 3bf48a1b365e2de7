import SQLiteKit

/// Each recorded table's ``RowMultisetDigest`` of changes, folded from the values a read of the
/// history holds (``StoredValues/Raw``, in ``StoredValues/order``), for
/// ``HistoryCheck/digestPass(_:latestFirst:repeatedLimit:)``.
struct ChangeDigests: Equatable {
  /// The digests, by `table_id`.
  private(set) var tables: [Int64: RowMultisetDigest] = [:]
  /// The tables with a change whose operation is not 0, 1 or 2 (a history edited by hand).
  private(set) var unusual: Set<Int64> = []
  /// Whether a change's table, key or operation was not the integer the history stores (a
  /// `history_changes` rebuilt by hand without its types): the digests cannot decide.
  private(set) var undecided = false

  private static let table = StoredValues.order.firstIndex(of: "table_id")!
  private static let key1 = StoredValues.order.firstIndex(of: "key1")!
  private static let key2 = StoredValues.order.firstIndex(of: "key2")!
  private static let operation = StoredValues.order.firstIndex(of: "operation")!

  init() {}

  /// The digests of each row's latest change alone: one walk of `history_changes_row` marks
  /// them (``LatestChanges``), one read of `history_changes` in id order folds them. `nil` when
  /// an id of `range` does not fit the bitmap.
  ///
  /// - Throws: `SQLiteError`.
  init?(latestOf connection: Connection, _ range: (first: Int64, last: Int64)) throws {
    guard var latest = try LatestChanges(connection, range) else { return nil }
    let changes = try connection.prepare(
      "SELECT id, \(Self.columns) FROM history_changes ORDER BY id")
    while try changes.step() {
      guard latest.remove(changes.int64(at: 0)) else { continue }
      StoredValues(statement: changes, idColumn: 0, columns: 1...10).withRaw { add($0) }
    }
  }

  /// Folds a change into its table's digest: its key and values for an insert or an update,
  /// nothing for a delete.
  mutating func add(_ values: StoredValues.Raw) {
    guard let (table, operation) = classify(values), operation != 0 else { return }
    tables[table, default: RowMultisetDigest()].add(change: values)
  }

  /// ``add(_:)``, and meets the change's row in `repeated`.
  mutating func add(_ values: StoredValues.Raw, meeting repeated: inout RepeatedRows) {
    add(values)
    guard case .integer(let table) = values[Self.table],
      case .integer(let key1) = values[Self.key1]
    else {
      undecided = true
      return
    }
    switch values[Self.key2] {
    case .integer(let key2): repeated.insert(RepeatedRows.Row(table: table, key1: key1, key2: key2))
    case .null: repeated.insert(RepeatedRows.Row(table: table, key1: key1, key2: nil))
    default: undecided = true
    }
  }

  /// Takes each listed row's changes before its latest back out of the digests (each row
  /// once, however often it is listed): an index seek of `history_changes_row` a row, in key
  /// order.
  ///
  /// - Throws: `SQLiteError`.
  mutating func removeEarlierChanges(
    of rows: consuming [RepeatedRows.Row], _ connection: Connection
  ) throws {
    guard !rows.isEmpty else { return }
    let changes = try connection.prepare(
      """
      SELECT id, \(Self.columns) FROM history_changes INDEXED BY history_changes_row
      WHERE table_id = ? AND key1 = ? AND key2 IS ? ORDER BY id DESC
      """)
    rows.sort()
    var previous: RepeatedRows.Row?
    for row in rows where row != previous {
      previous = row
      try changes.bind([
        SQLiteValue.integer(row.table), .integer(row.key1),
        row.key2.map(SQLiteValue.integer) ?? .null,
      ])
      // The first change read is the latest, which stays.
      var latest = true
      while try changes.step() {
        defer { latest = false }
        guard !latest else { continue }
        StoredValues(statement: changes, idColumn: 0, columns: 1...10).withRaw { values in
          guard let (table, operation) = classify(values), operation != 0 else { return }
          tables[table, default: RowMultisetDigest()].remove(change: values)
        }
      }
      changes.reset()
    }
  }

  /// The `history_changes` columns of a change's values, in ``StoredValues/order``.
  private static let columns = StoredValues.order.map { "\"\($0)\"" }.joined(separator: ", ")

  /// A change's table and operation; notes a table with an unusual operation, or an
  /// undecidable change, and returns `nil` for it.
  private mutating func classify(_ values: StoredValues.Raw) -> (Int64, Int64)? {
    guard case .integer(let table) = values[Self.table],
      case .integer(let operation) = values[Self.operation]
    else {
      undecided = true
      return nil
    }
    guard (0...2).contains(operation) else {
      unusual.insert(table)
      return nil
    }
    return (table, operation)
  }
}
