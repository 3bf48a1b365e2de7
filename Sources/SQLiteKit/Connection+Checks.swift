internal import CSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One row of `PRAGMA foreign_key_check`: a row whose parent is missing.
public struct ForeignKeyViolation: Hashable, Sendable, CustomStringConvertible {
  /// The child table.
  public let table: String
  /// The child row's rowid (`nil` for a WITHOUT ROWID table).
  public let rowID: Int64?
  /// The parent table it points at.
  public let parent: String

  /// `favorite_fruits row 3 -> fruits`.
  public var description: String {
    "\(table) row \(rowID.map(String.init) ?? "?") -> \(parent)"
  }
}

/// A run-time limit of one connection.
///
/// SQLite: <https://sqlite.org/c3ref/c_limit_attached.html>
public enum ConnectionLimit: Int32, Sendable {
  /// `SQLITE_LIMIT_ATTACHED`: how many databases `ATTACH` may add. 0 also stops
  /// `VACUUM INTO`, which writes a new file through an attached database.
  case attachedDatabases = 7
  /// `SQLITE_LIMIT_LENGTH`: the largest string or blob, in bytes.
  case length = 0
}

/// How a WAL checkpoint treats readers and the WAL file.
///
/// SQLite: <https://sqlite.org/c3ref/wal_checkpoint_v2.html>
public enum CheckpointMode: Int32, Sendable {
  /// Copy what it can without waiting.
  case passive = 0
  /// Wait for writers, then copy everything.
  case full = 1
  /// Like full, then wait for readers so the next writer restarts the WAL.
  case restart = 2
  /// Like restart, then truncate the WAL file to zero bytes.
  case truncate = 3
}

extension Connection {
  /// `PRAGMA integrity_check`: `["ok"]` for a sound database, otherwise up to 100 problems.
  /// When damage stops the check part-way (`SQLITE_CORRUPT`), the problems it reported come
  /// first and `integrity_check stopped: database disk image is malformed` last.
  ///
  /// - Throws: `SQLiteError` (e.g. ``ResultCode/notADatabase``, or ``ResultCode/interrupt``)
  ///   when the file cannot be checked at all, or the check was interrupted.
  /// - SQLite: <https://sqlite.org/pragma.html#pragma_integrity_check>
  public func integrityCheck() throws -> [String] {
    try check(pragma: "integrity_check")
  }

  /// `PRAGMA quick_check`: as ``integrityCheck()`` without matching indexes to their tables
  /// (and without CHECK constraints), in O(N) rather than O(N log N).
  ///
  /// - Throws: As ``integrityCheck()``.
  /// - SQLite: <https://sqlite.org/pragma.html#pragma_quick_check>
  public func quickCheck() throws -> [String] {
    try check(pragma: "quick_check")
  }

  /// The messages of `PRAGMA integrity_check` or `PRAGMA quick_check`. On some damage (a page
  /// that is no b-tree page) the pragma reports it, then stops with `SQLITE_CORRUPT`; the
  /// messages it gave are kept, followed by `<pragma> stopped: <SQLite's message>`, as the
  /// sqlite3 shell prints the lines and then the error.
  private func check(pragma name: String) throws -> [String] {
    let statement = try prepare("PRAGMA \(name)")
    var messages: [String] = []
    do {
      while let row = try statement.nextRow() { messages.append(try row.text(name)) }
    } catch let error as SQLiteError where error.code == .corrupt {
      messages.append("\(name) stopped: \(error.message)")
    }
    return messages
  }

  /// `PRAGMA foreign_key_check`: every row whose parent row is missing (empty when sound).
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  /// - SQLite: <https://sqlite.org/pragma.html#pragma_foreign_key_check>
  public func foreignKeyCheck() throws -> [ForeignKeyViolation] {
    let statement = try prepare("PRAGMA foreign_key_check")
    var violations: [ForeignKeyViolation] = []
    while let row = try statement.nextRow() {
      violations.append(
        ForeignKeyViolation(
          table: try row.text("table"), rowID: try row.optionalInt64("rowid"),
          parent: try row.text("parent")))
    }
    return violations
  }

  /// Lowers (or raises, up to the compile-time maximum) one run-time limit.
  ///
  /// - SQLite: <https://sqlite.org/c3ref/limit.html>
  public func setLimit(_ limit: ConnectionLimit, to value: Int) {
    sqlite3_limit(handle, limit.rawValue, Int32(clamping: value))
  }

  /// Runs a WAL checkpoint on the main database.
  ///
  /// - Parameter mode: How hard to try; ``CheckpointMode/truncate`` leaves an empty `-wal`.
  /// - Throws: `SQLiteError` with ``ResultCode/busy`` when another connection prevents a
  ///   full, restart or truncate checkpoint past the busy timeout.
  /// - SQLite: <https://sqlite.org/c3ref/wal_checkpoint_v2.html>
  public func checkpoint(_ mode: CheckpointMode = .passive) throws {
    try check(sqlite3_wal_checkpoint_v2(handle, "main", mode.rawValue, nil, nil))
  }
}

extension Connection {
  /// Opens `path` for checking its content without changing it: read-write with
  /// `PRAGMA query_only = ON` when the file can be opened for writing, read-only otherwise.
  ///
  /// `PRAGMA integrity_check` verifies CHECK constraints only on a connection that could
  /// write (SQLite 3.40 reports `ok` on a read-only connection to a file whose rows break a
  /// CHECK), so a checking connection is a writable one that refuses every write. The journal
  /// mode is left as the file has it (no switch to WAL), and closing it does not checkpoint a
  /// WAL (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`), so the file and its `-wal` stay byte for byte
  /// as they were.
  ///
  /// - Parameters:
  ///   - path: An existing database file.
  ///   - busyTimeout: Milliseconds to wait for another connection's lock.
  /// - Returns: The connection and whether it is the writable, query-only kind (`false`: a
  ///   read-only fallback, whose `integrity_check` skips CHECK constraints).
  /// - Throws: `SQLiteError` from the read-only open when both opens fail.
  /// - SQLite: <https://sqlite.org/pragma.html#pragma_query_only>,
  ///   <https://sqlite.org/pragma.html#pragma_integrity_check>,
  ///   <https://sqlite.org/c3ref/c_dbconfig_defensive.html>
  public static func openForChecking(path: String, busyTimeout: Int = 5000) throws -> (
    connection: Connection, verifiesChecks: Bool
  ) {
    if access(path, W_OK) == 0 {
      do {
        let connection = try Connection(
          path: path, mode: .readWrite, busyTimeout: busyTimeout, walMode: false)
        if (try? connection.execute("PRAGMA query_only = ON")) != nil,
          (try? connection.check(
            csqlite_db_config_bool(connection.handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1)))
            != nil
        {
          return (connection, true)
        }
      } catch let error as SQLiteError where !fallsBackToReadOnly(after: error) {
        throw error
      } catch {
        // A file or directory this process may not write after all: read it read-only.
      }
    }
    return (try Connection(path: path, mode: .readOnly, busyTimeout: busyTimeout), false)
  }

  /// Whether ``openForChecking(path:busyTimeout:)`` tries a read-only open after the
  /// read-write open failed with `error`: not when another connection's lock stopped it
  /// (``ResultCode/busy``, ``ResultCode/locked``), which the read-only open would wait for
  /// again, so that `check --busy-timeout N` gave up after about twice N.
  static func fallsBackToReadOnly(after error: SQLiteError) -> Bool {
    error.code != .busy && error.code != .locked
  }
}
