import SQLiteKit

extension HistoryCheck {
  /// `check`'s history findings (``findings(_:)``) and the chain's
  /// (``HistoryChain/findings(_:)``), in one read of the history (docs/history.md "Checking
  /// the history").
  ///
  /// The chain's pass reads every change anyway; there each row's latest change is folded into
  /// its table's ``RowMultisetDigest`` (``digestPass(_:latestFirst:repeatedLimit:)``), and each
  /// live table into another in one scan. A table whose two digests are equal agrees; any other
  /// (or every table, when the digests cannot decide) gets ``findings(_:tables:)``'s passes,
  /// which decide and name the rows. Runs in one read transaction when the caller has none
  /// open; memory: at most 16 MiB for the rows met.
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
    let pass = try digestPass(connection)
    let chain = HistoryChain.findings(of: pass.verdict)
    guard let disagreeing = pass.disagreeing else { return (try findings(connection), chain) }
    return (try findings(connection, tables: disagreeing), chain)
  }

  /// The chain's verdict and the tables whose live rows and latest changes have different
  /// ``RowMultisetDigest``s, from one read of the history and one scan of each table, in the
  /// caller's transaction. `disagreeing` is `nil` when the digests cannot decide: the chain has
  /// a fault and its read stopped there, the read did not reach every change (a history
  /// without change sets), a change's table, key or operation is not an integer, or the rows
  /// met twice outgrow their list and the ids do not fit the bitmap either.
  ///
  /// The read folds every change that is not a delete into its table's digest and notes each
  /// row met before (``RepeatedRows``); afterwards each such row's changes before its latest are
  /// looked up and taken back out, which leaves each row's latest change. When more than 1
  /// change in 32 is not its row's latest (``repeatsAreCommon(_:_:)``), or the history holds
  /// more changes than the filter is made for (``RepeatedRows/capacity``), one walk of
  /// `history_changes_row` marks the latest changes before the read instead (``LatestChanges``),
  /// and the read folds only those; when the rows met twice outgrow their list after all, a
  /// walk and a second read fold the latest changes (``ChangeDigests/init(latestOf:_:)``).
  ///
  /// - Parameters:
  ///   - latestFirst: `true` marks the latest changes first, `false` takes the earlier ones back
  ///     afterwards; `nil` (the default) samples the history to choose.
  ///   - repeatedLimit: How many rows met twice may be listed (``RepeatedRows/limit``); `nil`
  ///     for the default, 1 in 32 changes.
  /// - Throws: `SQLiteError`.
  static func digestPass(
    _ connection: Connection, latestFirst: Bool? = nil, repeatedLimit: Int? = nil
  ) throws -> (verdict: HistoryChain.Verdict, disagreeing: [RecordedTable]?) {
    let range = try changeIDs(connection)
    // The ids' span bounds the number of changes (ids are rowids, ascending).
    let span = range.map { UInt64(bitPattern: $0.last &- $0.first) } ?? 0
    let changes = Int(clamping: span)
    var digests = ChangeDigests()
    var lastRead: Int64?
    let verdict: HistoryChain.Verdict
    if let range,
      try latestFirst ?? (changes > RepeatedRows.capacity || repeatsAreCommon(connection, range)),
      var latest = try LatestChanges(connection, range)
    {
      verdict = try HistoryChain.verify(connection) { id, values in
        lastRead = id
        if latest.remove(id) { digests.add(values) }
      }
    } else {
      var repeated = RepeatedRows(changes: changes, limit: repeatedLimit)
      verdict = try HistoryChain.verify(connection) { id, values in
        lastRead = id
        digests.add(values, meeting: &repeated)
      }
      if verdict.fault == nil {
        if !repeated.overflowed {
          try digests.removeEarlierChanges(of: repeated.takeRows(), connection)
        } else if let range, let latest = try ChangeDigests(latestOf: connection, range) {
          digests = latest
        } else {
          return (verdict, nil)
        }
      }
    }
    guard verdict.fault == nil, lastRead == range?.last, !digests.undecided else {
      return (verdict, nil)
    }
    var disagreeing: [RecordedTable] = []
    for table in RecordedTable.all {
      let live = try RowMultisetDigest(of: table, connection)
      let id = Int64(table.historyID)
      if digests.unusual.contains(id) || live != digests.tables[id, default: .init()] {
        disagreeing.append(table)
      }
    }
    return (verdict, disagreeing)
  }

  /// The smallest and greatest change ids, `nil` for an empty history: two seeks.
  ///
  /// - Throws: `SQLiteError`.
  static func changeIDs(_ connection: Connection) throws -> (first: Int64, last: Int64)? {
    // Two subqueries: one query asking for both min() and max() would scan the table.
    let range = try connection.prepare(
      "SELECT (SELECT min(id) FROM history_changes), (SELECT max(id) FROM history_changes)")
    guard try range.step(), !range.isNull(at: 0), !range.isNull(at: 1) else { return nil }
    return (range.int64(at: 0), range.int64(at: 1))
  }

  /// Whether more than 1 change in 32 has a later change of the same row, estimated from 256
  /// changes spread evenly over the ids: two index seeks each. Past that share, looking up each
  /// row changed more than once costs more than one walk of `history_changes_row`.
  ///
  /// - Throws: `SQLiteError`.
  static func repeatsAreCommon(
    _ connection: Connection, _ range: (first: Int64, last: Int64)
  ) throws -> Bool {
    let samples = 256
    let change = try connection.prepare(
      "SELECT table_id, key1, key2, id FROM history_changes WHERE id >= ? ORDER BY id LIMIT 1")
    let later = try connection.prepare(
      """
      SELECT 1 FROM history_changes INDEXED BY history_changes_row
      WHERE table_id = ? AND key1 = ? AND key2 IS ? AND id > ? LIMIT 1
      """)
    // In unsigned arithmetic: the span of ids from a negative first to a positive last may
    // pass Int64.max.
    let span = UInt64(bitPattern: range.last &- range.first)
    var repeats = 0
    for sample in 0..<samples {
      let offset =
        span < 1 << 55
        ? span * UInt64(sample) / UInt64(samples) : span / UInt64(samples) * UInt64(sample)
      try change.bind([range.first &+ Int64(bitPattern: offset)])
      guard try change.step() else { break }
      try later.bind([
        change.value(at: 0), change.value(at: 1), change.value(at: 2), change.value(at: 3),
      ])
      if try later.step() { repeats += 1 }
      later.reset()
      change.reset()
    }
    return repeats * 32 > samples
  }
}
