internal import CSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An open connection to one SQLite database file.
///
/// Every connection is configured the same way: `PRAGMA foreign_keys = ON`, a busy timeout,
/// extended result codes, defensive mode with an untrusted schema and extension loading off
/// (`configureDefensively()`), and for writable connections WAL journal mode. A connection is
/// not `Sendable`: use it from one thread at a time.
///
/// SQLite: <https://sqlite.org/c3ref/sqlite3.html>
public final class Connection {
  // MARK: - Properties

  /// How a connection opens its file.
  public enum OpenMode: Sendable, Equatable {
    /// Reads only; every write, `PRAGMA` that writes or `ATTACH` of a new file fails with
    /// ``ResultCode/readOnly``. The file must exist.
    case readOnly
    /// Reads and writes an existing file; a missing file fails with ``ResultCode/cannotOpen``.
    case readWrite
    /// Reads and writes, creating the file (mode 0600) when it is missing.
    case readWriteCreate
  }

  let handle: OpaquePointer
  /// The path the connection was opened with (`:memory:` for an in-memory database).
  public let path: String
  /// The mode the connection was opened with.
  public let mode: OpenMode
  /// Prepared statements of ``cachedStatement(_:)``, one by SQL text, whether in use or not.
  var cachedHandles: [String: OpaquePointer] = [:]
  /// The handles of `cachedHandles` in use: checked out by a live ``Statement``.
  var checkedOutHandles: Set<OpaquePointer> = []
  /// The observer installed by ``traceStatements(_:)``, kept alive while SQLite may call it.
  var statementObserver: StatementObserver?
  /// Where the aggregate of ``collectIntegers(_:_:base:into:)`` sets its bits; created, and
  /// the function registered, on first use, and kept alive while SQLite may call it.
  var bitsetTarget: BitsetTarget?

  // MARK: - Init

  /// Opens (and for ``OpenMode/readWriteCreate`` creates) a database.
  ///
  /// - Parameters:
  ///   - path: A file path, or `:memory:` for a private in-memory database. Never read as a URI.
  ///   - mode: Read-only, read-write, or read-write-create (new files get mode 0600, and SQLite
  ///     gives the `-wal` and `-shm` files the same mode).
  ///   - milliseconds: Milliseconds a statement waits for another connection's lock before
  ///     failing with ``ResultCode/busy``; 0 fails at once.
  ///   - walMode: For writable file connections, switch the database to WAL journal mode
  ///     (docs/operations.md "Several writers, and locks"). `false` leaves the journal mode as the
  ///     file has it (a backup's destination, which must stay one self-contained file).
  /// - Throws: `SQLiteError` with ``ResultCode/cannotOpen`` when the file is missing (and not
  ///   created) or unreadable, ``ResultCode/notADatabase`` when it is not SQLite, or
  ///   ``ResultCode/busy`` when switching to WAL waits past the timeout.
  /// - SQLite: <https://sqlite.org/c3ref/open.html>
  public init(
    path: String, mode: OpenMode = .readWrite, busyTimeout milliseconds: Int = 5000,
    walMode: Bool = true
  ) throws {
    if mode == .readWriteCreate, path != ":memory:", !path.isEmpty {
      // Create the file ourselves so that it is private from the first byte.
      let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
      if descriptor >= 0 { close(descriptor) }
    }
    _ = Connection.libraryConfigured
    var flags: Int32
    switch mode {
    case .readOnly: flags = SQLITE_OPEN_READONLY
    case .readWrite: flags = SQLITE_OPEN_READWRITE
    case .readWriteCreate: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    }
    flags |= SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    // A read-only connection in a directory it cannot write opens `immutable=1`.
    let target = Connection.openTarget(path: path, mode: mode)
    flags |= target.flags
    var db: OpaquePointer?
    let rc = sqlite3_open_v2(target.filename, &db, flags, StatementJournalVFS.name)
    guard rc == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
      let code = db.map { sqlite3_extended_errcode($0) } ?? rc
      sqlite3_close_v2(db)
      throw SQLiteError(extendedCode: ResultCode(rawValue: code), message: message)
    }
    self.handle = db
    self.path = path
    self.mode = mode
    self.busyTimeout = milliseconds
    try check(sqlite3_extended_result_codes(db, 1))
    try setBusyTimeout(milliseconds)
    try configureDefensively()
    try execute("PRAGMA foreign_keys = ON")
    // Reading the schema here turns "file is not a database" into an error at open time.
    try execute("SELECT count(*) FROM sqlite_schema")
    if mode != .readOnly, path != ":memory:", walMode {
      try execute("PRAGMA journal_mode = WAL")
    }
  }

  /// Configures the SQLite library once, before the first connection initializes it:
  ///
  /// - memory statistics off (`SQLITE_CONFIG_MEMSTATUS`), so that connections used on
  ///   different threads (`check`'s parallel passes, the desk's pool) do not contend for
  ///   SQLite's one allocation mutex; nothing here reads those statistics;
  /// - statement journals kept in memory up to ``statementJournalSpillBytes``
  ///   (`SQLITE_CONFIG_STMTJRNL_SPILL`; SQLite's default is 64 KiB). Each statement inside a
  ///   write transaction that can fail half-way (one that fires triggers, as every write to the
  ///   case's tables does) journals the pages it changes, so that it alone can roll back. An
  ///   insert of one suspect changes about twenty pages (its table, indexes, the search queue,
  ///   the history's row and indexes), past 64 KiB, so every such statement wrote its journal
  ///   to a temporary file: about 60 `pwrite` calls a suspect (`strace -c` of an import of
  ///   5,000 suspects: 301,164 calls, 3,554 with the journal in memory).
  ///
  /// Then it registers ``StatementJournalVFS``, which every connection opens with, so that a
  /// journal larger than the threshold spills to its file instead of failing.
  ///
  /// The settings are ignored when the library was initialized before.
  ///
  /// SQLite: <https://sqlite.org/c3ref/c_config_covering_index_scan.html#sqliteconfigmemstatus>
  /// and <https://sqlite.org/c3ref/c_config_covering_index_scan.html#sqliteconfigstmtjrnlspill>
  private static let libraryConfigured: Bool = {
    let configured =
      csqlite_config_memstatus(0) == SQLITE_OK
      && csqlite_config_stmtjrnl_spill(statementJournalSpillBytes) == SQLITE_OK
    // Finding the default VFS initializes the library, so it comes after the settings.
    return StatementJournalVFS.isRegistered && configured
  }()

  /// How large a statement journal grows in memory before SQLite writes it to a temporary file,
  /// in bytes: 1 MiB, about 250 pages, several times the thirty or so that the largest statement
  /// of inspector's row-by-row writes changes (a removal that cascades to four tables, their
  /// history, and a b-tree split or two); a statement that changes more (`sql --write` over
  /// many rows, a migration) spills, so memory stays bounded.
  ///
  /// Once a journal spills, SQLite keeps it in its file until the transaction ends, and every
  /// later statement of the transaction writes its journal through system calls: at 128 KiB,
  /// removing 100,000 suspects in one change set spilled early and took 2.7 times as long as
  /// without the history (`inspector-bench --workload delete`), against 1.5 times with the
  /// journal in memory. Above 128 KiB a spill needs ``StatementJournalVFS``, which splits the
  /// write that SQLite 3.40.1 makes of a whole chunk; without it the unix VFS wrote nothing
  /// and the statement failed with `SQLITE_FULL`, "database or disk is full" (seen at 4 MiB:
  /// `list --as-of` of a million suspects, a migration's `DROP INDEX`, a large `UPDATE` inside
  /// a transaction). `ConnectionTests` writes such a statement.
  static let statementJournalSpillBytes: Int32 = 1 << 20

  deinit {
    for cached in cachedHandles.values { sqlite3_finalize(cached) }
    sqlite3_close_v2(handle)
  }

  // MARK: - Public API

  /// The version of the SQLite library in use, such as `3.40.1`.
  ///
  /// SQLite: <https://sqlite.org/c3ref/libversion.html>
  public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

  /// Milliseconds a statement waits for a lock before ``ResultCode/busy``, as given to
  /// ``init(path:mode:busyTimeout:walMode:)`` or ``setBusyTimeout(_:)``.
  ///
  /// SQLite: <https://sqlite.org/c3ref/busy_timeout.html>
  public private(set) var busyTimeout: Int

  /// Sets ``busyTimeout`` with `sqlite3_busy_timeout`. Negative values count as 0.
  ///
  /// - Throws: `SQLiteError` when SQLite refuses the call.
  /// - SQLite: <https://sqlite.org/c3ref/busy_timeout.html>
  public func setBusyTimeout(_ milliseconds: Int) throws {
    try check(sqlite3_busy_timeout(handle, Int32(clamping: max(0, milliseconds))))
    busyTimeout = milliseconds
  }

  /// The rowid of the most recent successful `INSERT` on this connection (0 before any).
  ///
  /// SQLite: <https://sqlite.org/c3ref/last_insert_rowid.html>
  public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// Rows changed by the most recent `INSERT`, `UPDATE` or `DELETE`.
  ///
  /// SQLite: <https://sqlite.org/c3ref/changes.html>
  public var changes: Int { Int(sqlite3_changes64(handle)) }

  /// Rows changed by every `INSERT`, `UPDATE` and `DELETE` since the connection opened,
  /// triggers' included. Unlike ``changes`` it moves only when a statement changed rows, so a
  /// statement that left it alone (DDL, a `SELECT`) changed none.
  ///
  /// SQLite: <https://sqlite.org/c3ref/total_changes.html>
  public var totalChanges: Int { Int(sqlite3_total_changes64(handle)) }

  /// `true` when no transaction is open (SQLite's autocommit mode).
  ///
  /// SQLite: <https://sqlite.org/c3ref/get_autocommit.html>
  public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

  /// `true` while a write transaction is open on the main database (`BEGIN IMMEDIATE`, or a
  /// deferred one that has written): another connection to the same file may then be refused
  /// (`SQLITE_BUSY`) until it ends.
  ///
  /// SQLite: <https://sqlite.org/c3ref/txn_state.html>
  public var isWriting: Bool { sqlite3_txn_state(handle, "main") == SQLITE_TXN_WRITE }

  /// Prepares one SQL statement.
  ///
  /// - Parameter sql: Exactly one statement; text after the first statement is an error, so that
  ///   a caller never silently runs half a script. Use ``execute(_:)`` or
  ///   ``forEachStatement(in:_:)`` for scripts.
  /// - Throws: `SQLiteError` for syntax errors, unknown tables or columns, or trailing SQL.
  /// - SQLite: <https://sqlite.org/c3ref/prepare.html>
  public func prepare(_ sql: String) throws -> Statement {
    var statements: [Statement] = []
    try forEachStatement(in: sql) { statement in
      guard statements.isEmpty else {
        throw SQLiteError(
          extendedCode: .misuse, message: "more than one statement given to prepare", sql: sql)
      }
      statements.append(statement)
    }
    guard let statement = statements.first else {
      throw SQLiteError(extendedCode: .misuse, message: "no SQL statement to prepare", sql: sql)
    }
    return statement
  }

  /// Prepares each statement of a script in turn and hands it to `body`, which steps it.
  ///
  /// A statement is prepared only after the previous one has been handed over, so a script may
  /// create a table and then use it. Comments and empty statements are skipped.
  ///
  /// - Throws: The first `SQLiteError` from preparing (its `sql` is the script from the failing
  ///   statement to the end), or whatever `body` throws; statements after it are neither
  ///   prepared nor run.
  /// - SQLite: <https://sqlite.org/c3ref/prepare.html>
  public func forEachStatement(in sql: String, _ body: (Statement) throws -> Void) throws {
    try forEachStatement(in: sql, flags: 0, cacheKey: nil, body)
  }

  /// ``forEachStatement(in:_:)`` with `sqlite3_prepare_v3` flags (`SQLITE_PREPARE_*`), the
  /// statements marked for the cache under `cacheKey` (see ``cachedStatement(_:)``).
  func forEachStatement(
    in sql: String, flags: UInt32, cacheKey: String?, _ body: (Statement) throws -> Void
  ) throws {
    var bytes = Array(sql.utf8)
    bytes.append(0)
    try bytes.withUnsafeBufferPointer { buffer in
      let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
      var offset = 0
      let end = buffer.count - 1
      while offset < end {
        var raw: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let rc = sqlite3_prepare_v3(
          handle, base + offset, Int32(end - offset), flags, &raw, &tail)
        let consumed = tail.map { $0 - (base + offset) } ?? (end - offset)
        do {
          // On failure the tail points just past the offending token, not past the statement,
          // so report all the SQL that was being prepared.
          try check(rc, sql: String(decoding: buffer[offset..<end], as: UTF8.self))
        } catch {
          sqlite3_finalize(raw)
          throw error
        }
        offset += max(consumed, 1)
        guard let raw else { continue }  // whitespace or a comment
        let statement = Statement(handle: raw, connection: self, cacheKey: cacheKey)
        statement.isLastInScript = Self.isBlank(buffer[min(offset, end)..<end])
        try body(statement)
      }
    }
  }

  /// Whether SQL text holds only white space, `-- line` comments and `/* block */` comments
  /// (an unterminated block comment runs to the end), the text SQLite prepares to no statement.
  ///
  /// - SQLite: <https://sqlite.org/lang_comment.html>
  static func isBlank(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    var index = text.startIndex
    while index < text.endIndex {
      let byte = text[index]
      let next = index + 1 < text.endIndex ? text[index + 1] : 0
      switch byte {
      case 0x20, 0x09, 0x0A, 0x0C, 0x0D:
        index += 1
      case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
        while index < text.endIndex && text[index] != 0x0A { index += 1 }
      case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
        index += 2
        while index < text.endIndex
          && !(text[index] == UInt8(ascii: "*") && index + 1 < text.endIndex
            && text[index + 1] == UInt8(ascii: "/"))
        {
          index += 1
        }
        index = min(index + 2, text.endIndex)
      default:
        return false
      }
    }
    return true
  }

  /// Runs a script of zero or more statements, discarding any rows.
  ///
  /// - Throws: The first statement's `SQLiteError`; statements before it have run (wrap the call
  ///   in ``inTransaction(_:_:)`` to make the script all-or-nothing).
  /// - SQLite: <https://sqlite.org/c3ref/exec.html>
  public func execute(_ sql: String) throws {
    try forEachStatement(in: sql) { statement in
      while try statement.step() {}
    }
  }

  /// Runs one statement with positional arguments, discarding any rows.
  ///
  /// - Parameters:
  ///   - sql: One statement with `?` parameters.
  ///   - arguments: Values bound to `?1`, `?2`, ... in order.
  /// - Throws: `SQLiteError` from preparing, binding or stepping.
  public func execute(_ sql: String, _ arguments: [any SQLiteBindable]) throws {
    let statement = try prepare(sql)
    try statement.bind(arguments)
    while try statement.step() {}
  }

  /// Runs a query and returns the first column of its first row, or `nil` when there is no row.
  ///
  /// - Throws: `SQLiteError` from preparing, binding or stepping.
  public func scalar(_ sql: String, _ arguments: [any SQLiteBindable] = []) throws -> SQLiteValue? {
    let statement = try prepare(sql)
    try statement.bind(arguments)
    guard try statement.step() else { return nil }
    return statement.value(at: 0)
  }

  /// `PRAGMA user_version`: a free 32-bit integer in the database header (0 in a new file).
  ///
  /// SQLite: <https://sqlite.org/pragma.html#pragma_user_version>
  public func userVersion() throws -> Int {
    Int(try scalar("PRAGMA user_version")?.integerValue ?? 0)
  }

  /// Asks any running statement on this connection to stop with ``ResultCode/interrupt``.
  ///
  /// SQLite: <https://sqlite.org/c3ref/interrupt.html>
  public func interrupt() { sqlite3_interrupt(handle) }

  // MARK: - Internal helpers

  /// The funnel for every result code: returns on `SQLITE_OK`, `SQLITE_ROW` and `SQLITE_DONE`,
  /// and throws `SQLiteError` with the connection's message otherwise.
  ///
  /// Every C call that reports a result code passes it here (or to `error(code:sql:)` when
  /// the code is known to be a failure), `sqlite3_db_config` and the authorizer included. The
  /// only codes not checked are those that repeat a failure already reported or come from
  /// clean-up on a path that is already throwing: `sqlite3_reset` and `sqlite3_finalize` (they
  /// return the last step's error), `sqlite3_clear_bindings`, `sqlite3_close_v2`, and
  /// `sqlite3_backup_finish` after a failed step. `sqlite3_open_v2` has no connection yet.
  ///
  /// `sql` is evaluated only on failure: callers bind in hot loops, and reading a statement's
  /// SQL text copies it.
  func check(_ code: Int32, sql: @autoclosure () -> String? = nil) throws {
    switch code {
    case SQLITE_OK, SQLITE_ROW, SQLITE_DONE: return
    default: throw error(code: code, sql: sql())
    }
  }

  /// The `SQLiteError` for the failure `code`, classified by the connection's extended result
  /// code and carrying its message.
  func error(code: Int32, sql: String?) -> SQLiteError {
    let extended = sqlite3_extended_errcode(handle)
    // The connection's code can be stale (e.g. after a misuse); trust the primary code given.
    let current = (extended & 0xFF) == (code & 0xFF)
    // A failure that did not come through the connection (the session extension returns its
    // codes without setting the connection's error) leaves sqlite3_errmsg at "not an error":
    // then SQLite's text for the code itself is the message.
    let message =
      current ? String(cString: sqlite3_errmsg(handle)) : String(cString: sqlite3_errstr(code))
    return SQLiteError(
      extendedCode: ResultCode(rawValue: current ? extended : code), message: message, sql: sql)
  }
}
