import Foundation
import SQLiteKit

/// Connections to one case file shared by concurrent requests (docs/web-desk.md "API"): reads
/// run on any free read connection, each in its own read transaction (one snapshot), and never
/// wait for a writer (the file is in WAL mode); writes run one at a time on the one write
/// connection.
///
/// - Read connections are opened read-only (``CaseDatabase/Access/readOnly``) as they are first
///   needed, up to `readers` of them; a read finding every one in use waits, and a connection
///   given back goes to the read that has waited longest (first come, first served: under load
///   no read is overtaken again and again, which kept the desk's slowest pages slow).
/// - The write connection (none when `readOnly`) serves one ``write(_:_:)`` at a time; a write
///   that finds it in use waits up to the busy timeout, then throws `SQLiteError` with
///   `ResultCode.busy`, as SQLite does when another process holds the lock.
/// - Each connection keeps a page cache of at most ``cacheKiB`` KiB, so the pool stays small
///   however large the file (a million suspects: a few MiB per connection).
/// - ``dataVersion()`` reads `PRAGMA data_version` on a connection of its own, so it changes
///   whenever anyone commits to the file: this pool's writer, the command line, the sqlite3
///   shell.
/// - ``read(asOf:_:)`` reads the case as it stood at a point of its history, rebuilt once per
///   change set and kept for the next request (the last ``asOfCacheSize`` points).
public final class CaseDatabasePool: @unchecked Sendable {
  // @unchecked: `idle`, `opened`, `waiting` and the connections they hold are used under
  // `readers`; `writer` under `writeLock`; `probe` under `probeLock`; `asOfCases` under
  // `asOfLock`.

  // MARK: - Properties

  /// The case file.
  public let path: String
  /// Whether the pool has no write connection (every ``write(_:_:)`` throws).
  public let readOnly: Bool
  /// How many read connections at most.
  public let maximumReaders: Int
  /// The page cache of each connection, in KiB (`PRAGMA cache_size = -2048`).
  public static let cacheKiB = 2048
  /// How many rebuilt cases ``read(asOf:_:)`` keeps (each in a temporary file of its own).
  public static let asOfCacheSize = 2

  private let busyTimeout: Int
  private let readers = NSLock()
  private var idle: [CaseDatabase] = []
  private var opened = 0
  /// Reads waiting for a connection, first come first served: a connection given back goes to
  /// the one that has waited longest, never to a read that arrives later.
  private var waiting: [ReadWaiter] = []
  private let writeLock = NSLock()
  private let writer: CaseDatabase?
  private let probeLock = NSLock()
  private var probe: Connection?
  private let asOfLock = NSLock()
  private var asOfCases: [(changeSet: Int64, database: CaseDatabase)] = []

  // MARK: - Init

  /// Opens the case file at `path`: one read connection at once (so a file that is missing,
  /// not a case file or at an older schema is refused here), the write connection unless
  /// `readOnly`.
  ///
  /// - Parameters:
  ///   - path: The case file.
  ///   - readOnly: Open no write connection.
  ///   - busyTimeout: Milliseconds a write waits for the write connection or SQLite's lock.
  ///   - readers: Read connections at most (1 or more; 4 by default).
  /// - Throws: What ``CaseDatabase/init(checkingFileAt:access:busyTimeout:)`` throws.
  public init(path: String, readOnly: Bool, busyTimeout: Int = 5000, readers: Int = 4) throws {
    self.path = path
    self.readOnly = readOnly
    self.busyTimeout = busyTimeout
    maximumReaders = max(readers, 1)
    // The writer first: it puts a new file in WAL mode before any reader opens it.
    writer = readOnly ? nil : try Self.open(path, .readWrite, busyTimeout: busyTimeout)
    idle = [try Self.open(path, .readOnly, busyTimeout: busyTimeout)]
    opened = 1
  }

  // MARK: - Public API

  /// Runs `body` in one read transaction (``CaseDatabase/read(_:)``) on a free read connection,
  /// waiting for one when all ``maximumReaders`` are in use. Commits made meanwhile by the
  /// writer or by other processes are not seen by `body`; the next read sees them.
  ///
  /// - Throws: What opening a further read connection or `body` throws.
  public func read<T>(_ body: (CaseReader) throws -> T) throws -> T {
    let database = try checkOutReader()
    defer { checkIn(database) }
    return try database.read(body)
  }

  /// A read transaction on a free read connection (waiting for one as ``read(_:)`` does) that
  /// stays open until ``CasePoolRead/end()``: for a response sent while it is read (the desk's
  /// suspect pages, docs/web-desk.md "API"), every part of it from one snapshot. The
  /// connection is out of the pool until then, so `end()` must follow, on any thread.
  ///
  /// - Throws: What opening a further read connection or beginning the transaction throws.
  public func openRead() throws -> CasePoolRead {
    let database = try checkOutReader()
    do {
      return CasePoolRead(reader: try database.beginOpenRead(), database: database, pool: self)
    } catch {
      checkIn(database)
      throw error
    }
  }

  /// Runs `body` on the case as it stood at `point` (`--as-of`'s value: a change set id or a
  /// time, docs/history.md "As of"), or on the case now when `point` is `nil`.
  ///
  /// The point is resolved on a read connection (``CaseHistory/changeSet(asOf:)``); the case
  /// then is rebuilt from the history (``CaseHistory/rebuiltCase(asOf:)``) once and kept, for
  /// the last ``asOfCacheSize`` change sets asked for, so paging through a past listing does
  /// not rebuild it per page. Reads of rebuilt cases run one at a time.
  ///
  /// - Throws: ``CaseError/unknownChangeSet(_:)``, ``CaseError/beforeHistory(point:firstChangeSet:at:)``
  ///   or ``CaseError/invalidValue(field:value:expected:)`` for a point the history cannot
  ///   answer; what rebuilding or `body` throws.
  public func read<T>(asOf point: String?, _ body: (CaseReader) throws -> T) throws -> T {
    try read(asOf: point, suspect: nil, body)
  }

  /// ``read(asOf:_:)`` for reads of one suspect (`show NAME --as-of` on the desk): unless the
  /// whole case then is kept already, only the suspect's own rows are rebuilt
  /// (``CaseHistory/rebuiltCase(asOf:suspect:)``, index seeks whatever the size of the case),
  /// and not kept; the suspect is found in it by ``SuspectRepository/suspect(id:)``.
  ///
  /// - Parameters:
  ///   - point: A change set id or a time, or `nil` for the case now.
  ///   - suspect: The suspect's id, or `nil` to rebuild (and keep) the whole case.
  ///   - body: The reads, on the case as it stood at `point`; what it returns is returned.
  /// - Throws: As ``read(asOf:_:)``.
  public func read<T>(asOf point: String?, suspect: Int64?, _ body: (CaseReader) throws -> T)
    throws -> T
  {
    guard let point else { return try read(body) }
    let changeSet = try read { try $0.history.changeSet(asOf: point) }
    return try asOfLock.withLock {
      if let index = asOfCases.firstIndex(where: { $0.changeSet == changeSet }) {
        let entry = asOfCases.remove(at: index)
        asOfCases.append(entry)
        return try entry.database.read(body)
      }
      if let suspect {
        return try read { try $0.history.rebuiltCase(asOf: changeSet, suspect: suspect) }
          .read(body)
      }
      let rebuilt = try read { try $0.history.rebuiltCase(asOf: changeSet) }
      asOfCases.append((changeSet, rebuilt))
      if asOfCases.count > Self.asOfCacheSize { asOfCases.removeFirst() }
      return try rebuilt.read(body)
    }
  }

  /// Runs `body` as one change set (``CaseDatabase/write(_:_:)``) on the write connection.
  ///
  /// - Throws: `SQLiteError` with `ResultCode.busy` when another write holds the
  ///   connection past the busy timeout (or another process holds SQLite's lock past it);
  ///   `ResultCode.readOnly` for a read-only pool; what `body` throws. Nothing is
  ///   stored when it throws.
  public func write<T>(_ attribution: ChangeAttribution?, _ body: (CaseWriter) throws -> T)
    throws -> T
  {
    guard let writer else {
      throw SQLiteError(
        extendedCode: .readOnly, message: "the case file is served read-only")
    }
    let deadline = Date(timeIntervalSinceNow: Double(busyTimeout) / 1000)
    guard writeLock.lock(before: deadline) else {
      throw SQLiteError(
        extendedCode: .busy, message: "another edit is being saved; the database is locked")
    }
    defer { writeLock.unlock() }
    return try writer.write(attribution, body)
  }

  /// `PRAGMA data_version` of a connection kept for it alone: a number that changes whenever
  /// any connection, in this process or another, has committed a change to the file since the
  /// last call (docs/web-desk.md "Live changes and conflicting edits"). Only changes matter,
  /// not the value.
  ///
  /// - Throws: `SQLiteError` when the file cannot be opened or read.
  /// - SQLite: <https://sqlite.org/pragma.html#pragma_data_version>
  public func dataVersion() throws -> Int64 {
    try probeLock.withLock {
      if probe == nil {
        probe = try Connection(path: path, mode: .readOnly, busyTimeout: busyTimeout)
      }
      return try probe?.scalar("PRAGMA data_version")?.integerValue ?? 0
    }
  }

  // MARK: - Private helpers

  /// A case database with the pool's page cache.
  private static func open(_ path: String, _ access: CaseDatabase.Access, busyTimeout: Int)
    throws -> CaseDatabase
  {
    let database = try CaseDatabase(
      checkingFileAt: path, access: access, busyTimeout: busyTimeout)
    try database.connection.execute("PRAGMA cache_size = -\(cacheKiB)")
    return database
  }

  /// An idle read connection, a new one while fewer than ``maximumReaders`` are open, or, in
  /// the order the reads came, the first one given back.
  private func checkOutReader() throws -> CaseDatabase {
    while true {
      readers.lock()
      if waiting.isEmpty, let database = idle.popLast() {
        readers.unlock()
        return database
      }
      if waiting.isEmpty, opened < maximumReaders {
        opened += 1
        readers.unlock()
        do {
          return try Self.open(path, .readOnly, busyTimeout: busyTimeout)
        } catch {
          readers.lock()
          opened -= 1
          // A read waiting for this connection opens one of its own instead.
          let next = waiting.isEmpty ? nil : waiting.removeFirst()
          readers.unlock()
          next?.handOver(nil)
          throw error
        }
      }
      let waiter = ReadWaiter()
      waiting.append(waiter)
      readers.unlock()
      if let database = waiter.wait() { return database }
    }
  }

  /// Gives a read connection back: to the read that has waited longest, else to the idle ones.
  fileprivate func checkIn(_ database: CaseDatabase) {
    readers.lock()
    guard !waiting.isEmpty else {
      idle.append(database)
      readers.unlock()
      return
    }
    let next = waiting.removeFirst()
    readers.unlock()
    next.handOver(database)
  }
}

/// One read waiting for a connection (``CaseDatabasePool``'s first-come-first-served queue).
private final class ReadWaiter: @unchecked Sendable {
  // @unchecked: `database` is written once by the thread handing over, before `semaphore` is
  // signalled, and read by the waiting thread only after it has been.
  private let semaphore = DispatchSemaphore(value: 0)
  private var database: CaseDatabase?

  /// Waits for ``handOver(_:)``: the connection, or `nil` when the read must open its own.
  func wait() -> CaseDatabase? {
    semaphore.wait()
    return database
  }

  /// Gives `database` (or `nil`: try again) to the waiting read.
  func handOver(_ database: CaseDatabase?) {
    self.database = database
    semaphore.signal()
  }
}

/// A read transaction of a ``CaseDatabasePool`` left open across calls
/// (``CaseDatabasePool/openRead()``): ``reader`` reads one snapshot until ``end()`` gives the
/// connection back. Use it from one thread at a time.
public final class CasePoolRead: @unchecked Sendable {
  // @unchecked: the reader is used by one thread at a time (the caller's rule); `ended` is
  // under `lock`.

  /// The read operations, valid until ``end()``.
  public let reader: CaseReader
  private let database: CaseDatabase
  private let pool: CaseDatabasePool
  private let lock = NSLock()
  private var ended = false

  fileprivate init(reader: CaseReader, database: CaseDatabase, pool: CaseDatabasePool) {
    self.reader = reader
    self.database = database
    self.pool = pool
  }

  deinit {
    end()
  }

  /// Ends the transaction and gives the connection back to the pool; later calls do nothing.
  /// Release every statement read through ``reader`` first (a cursor).
  public func end() {
    let first = lock.withLock {
      defer { ended = true }
      return !ended
    }
    guard first else { return }
    database.endOpenRead()
    pool.checkIn(database)
  }
}
