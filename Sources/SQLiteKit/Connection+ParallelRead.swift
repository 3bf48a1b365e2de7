import Dispatch

extension Connection {
  /// This connection's data version of the main database: a number that changes when another
  /// connection (of this or any process) commits a change to the file, and stays the same for
  /// as long as a read transaction is open. Values of two connections are not comparable.
  ///
  /// Read inside a `BEGIN` it starts the read transaction, so it also takes the snapshot the
  /// transaction's later statements read.
  ///
  /// - Throws: `SQLiteError` when the file cannot be read (e.g. ``ResultCode/busy``).
  /// - SQLite: <https://sqlite.org/pragma.html#pragma_data_version>
  public func dataVersion() throws -> Int64 {
    try scalar("PRAGMA main.data_version")?.integerValue ?? 0
  }

  /// Runs `body` in one read transaction on this connection while `partner` reads on a second,
  /// read-only connection to the same file on another thread, and lets `body` take the
  /// partner's result only when both read the same snapshot of the file.
  ///
  /// The snapshots are matched without `sqlite3_snapshot_get`, which not every SQLite build
  /// has: the partner begins its read transaction and reads ``dataVersion()``; then this
  /// connection begins its own; when the partner has done its work, has ended its transaction
  /// and this connection's snapshot is taken, it reads the data version again. The same number
  /// means no connection committed in between, so both transactions read the same state.
  ///
  /// `body` receives a function that waits for the partner and returns its result, or `nil`
  /// when it cannot be used: the two snapshots may differ (a commit came in between), the
  /// partner could not open the file or failed, or no partner ran because this connection is
  /// in memory or already inside a transaction (then `body` runs in that transaction). On
  /// `nil`, `body` computes the value on this connection, in its own snapshot. The partner is
  /// always waited for before this method returns, and its connection closed.
  ///
  /// - Parameters:
  ///   - partner: The work of the second connection (opened with ``OpenMode/readOnly`` and this
  ///     connection's busy timeout, inside its read transaction); it must only read.
  ///   - body: The work of this connection, inside its read transaction.
  /// - Returns: What `body` returns, after the read transaction ended.
  /// - Throws: What `body` throws, or `SQLiteError` when the read transaction cannot begin or
  ///   end. A partner's error is never thrown; its result is then `nil`.
  /// - SQLite: <https://sqlite.org/isolation.html>, <https://sqlite.org/wal.html#concurrency>
  public func readingInParallel<Partial: Sendable, T>(
    partner: @escaping @Sendable (Connection) throws -> Partial,
    _ body: (_ partnerResult: () -> Partial?) throws -> T
  ) throws -> T {
    guard isAutocommit, path != ":memory:", !path.isEmpty else {
      return try body { nil }
    }
    let run = PartnerRun<Partial>()
    let (path, busyTimeout) = (self.path, self.busyTimeout)
    DispatchQueue.global().async { run.start(path: path, busyTimeout: busyTimeout, partner) }
    run.partnerBegan.wait()
    var signalled = false
    defer {
      if !signalled { run.callerBegan.signal() }
      run.finished.wait()
    }
    return try inTransaction(.deferred) {
      // Takes this transaction's snapshot, after the partner took its own.
      _ = try dataVersion()
      run.callerBegan.signal()
      signalled = true
      return try body {
        run.finished.wait()
        run.finished.signal()
        return run.usableResult
      }
    }
  }
}

/// The state shared by ``Connection/readingInParallel(partner:_:)`` and its partner thread.
///
/// Each field is written by one side before it signals a semaphore and read by the other after
/// waiting on it, which orders the accesses; hence `@unchecked Sendable`.
private final class PartnerRun<Partial: Sendable>: @unchecked Sendable {
  /// Signalled once the partner's snapshot is taken (or the partner gave up).
  let partnerBegan = DispatchSemaphore(value: 0)
  /// Signalled once the caller's snapshot is taken (or the caller gave up).
  let callerBegan = DispatchSemaphore(value: 0)
  /// Signalled once the partner has finished and closed its connection.
  let finished = DispatchSemaphore(value: 0)
  /// The partner's result when both snapshots were the same; written before `finished`.
  private(set) var usableResult: Partial?

  /// The partner thread: opens the file, takes a snapshot, runs `partner`, then checks that
  /// no commit came between its snapshot and the caller's.
  func start(path: String, busyTimeout: Int, _ partner: (Connection) throws -> Partial) {
    var (began, waited) = (false, false)
    defer {
      if !began { partnerBegan.signal() }
      finished.signal()
    }
    do {
      let connection = try Connection(path: path, mode: .readOnly, busyTimeout: busyTimeout)
      try connection.execute("BEGIN DEFERRED TRANSACTION")
      let before = try connection.dataVersion()
      partnerBegan.signal()
      began = true
      let result = try partner(connection)
      try connection.execute("COMMIT TRANSACTION")
      callerBegan.wait()
      waited = true
      if try connection.dataVersion() == before { usableResult = result }
    } catch {
      // The caller then computes the partner's share itself.
      if began && !waited { callerBegan.wait() }
    }
  }
}
