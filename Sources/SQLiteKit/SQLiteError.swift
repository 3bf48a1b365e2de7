/// An error reported by SQLite, or by this wrapper on SQLite's behalf.
///
/// Carries SQLite's primary result code (the low 8 bits), the extended result code, SQLite's
/// own message and the SQL that was being prepared or run. Values bound to the statement are
/// never included, so the error can be shown or logged without leaking evidence.
///
/// SQLite: <https://sqlite.org/rescode.html>
public struct SQLiteError: Error, Equatable, CustomStringConvertible, Sendable {
  /// The primary result code, such as ``ResultCode/constraint`` or ``ResultCode/busy``.
  public var code: ResultCode { ResultCode(rawValue: extendedCode.rawValue & 0xFF) }
  /// The extended result code, such as `SQLITE_CONSTRAINT_UNIQUE` (2067).
  public let extendedCode: ResultCode
  /// SQLite's message, as `sqlite3_errmsg` returned it (or this wrapper's own sentence).
  public let message: String
  /// The SQL being prepared or stepped when the error happened, if any.
  public let sql: String?

  /// Creates an error from a result code and message.
  ///
  /// - Parameters:
  ///   - extendedCode: The extended (or primary) result code.
  ///   - message: A one-line description.
  ///   - sql: The statement's SQL, if one was involved.
  public init(extendedCode: ResultCode, message: String, sql: String? = nil) {
    self.extendedCode = extendedCode
    self.message = message
    self.sql = sql
  }

  /// `SQLite error 19 (constraint, extended 2067): UNIQUE constraint failed: ...`.
  public var description: String {
    var text = "SQLite error \(code.rawValue)"
    if extendedCode != code { text += " (extended \(extendedCode.rawValue))" }
    text += ": \(message)"
    if let sql { text += " [SQL: \(sql)]" }
    return text
  }
}

/// A SQLite result code (primary or extended), as an opaque number with named constants.
///
/// SQLite: <https://sqlite.org/rescode.html>
public struct ResultCode: RawRepresentable, Hashable, Sendable {
  /// The numeric code, as SQLite defines it.
  public let rawValue: Int32

  /// Wraps a numeric result code.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// `SQLITE_OK` (0).
  public static let ok = ResultCode(rawValue: 0)
  /// `SQLITE_ERROR` (1): generic error, including SQL syntax errors.
  public static let error = ResultCode(rawValue: 1)
  /// `SQLITE_INTERNAL` (2).
  public static let `internal` = ResultCode(rawValue: 2)
  /// `SQLITE_PERM` (3).
  public static let permission = ResultCode(rawValue: 3)
  /// `SQLITE_ABORT` (4).
  public static let abort = ResultCode(rawValue: 4)
  /// `SQLITE_BUSY` (5): another connection holds the lock past the busy timeout.
  public static let busy = ResultCode(rawValue: 5)
  /// `SQLITE_LOCKED` (6).
  public static let locked = ResultCode(rawValue: 6)
  /// `SQLITE_NOMEM` (7).
  public static let noMemory = ResultCode(rawValue: 7)
  /// `SQLITE_READONLY` (8): a write on a read-only connection or file.
  public static let readOnly = ResultCode(rawValue: 8)
  /// `SQLITE_INTERRUPT` (9).
  public static let interrupt = ResultCode(rawValue: 9)
  /// `SQLITE_IOERR` (10).
  public static let ioError = ResultCode(rawValue: 10)
  /// `SQLITE_CORRUPT` (11): the file is damaged.
  public static let corrupt = ResultCode(rawValue: 11)
  /// `SQLITE_FULL` (13).
  public static let full = ResultCode(rawValue: 13)
  /// `SQLITE_CANTOPEN` (14): the file cannot be opened.
  public static let cannotOpen = ResultCode(rawValue: 14)
  /// `SQLITE_TOOBIG` (18): a string or blob over SQLite's size limit.
  public static let tooBig = ResultCode(rawValue: 18)
  /// `SQLITE_CONSTRAINT` (19): a `CHECK`, `UNIQUE`, `NOT NULL` or foreign key refused a write.
  public static let constraint = ResultCode(rawValue: 19)
  /// `SQLITE_MISMATCH` (20).
  public static let mismatch = ResultCode(rawValue: 20)
  /// `SQLITE_MISUSE` (21).
  public static let misuse = ResultCode(rawValue: 21)
  /// `SQLITE_AUTH` (23): refused by the authorizer.
  public static let authorization = ResultCode(rawValue: 23)
  /// `SQLITE_RANGE` (25): a bind index out of range.
  public static let range = ResultCode(rawValue: 25)
  /// `SQLITE_NOTADB` (26): the file is not a database.
  public static let notADatabase = ResultCode(rawValue: 26)
  /// `SQLITE_ROW` (100): `sqlite3_step` has a row ready.
  public static let row = ResultCode(rawValue: 100)
  /// `SQLITE_DONE` (101): `sqlite3_step` has finished.
  public static let done = ResultCode(rawValue: 101)

  // MARK: - Extended result codes

  /// `SQLITE_CONSTRAINT_UNIQUE` (2067): a `UNIQUE` constraint or unique index refused a write.
  ///
  /// The code does not say which constraint: on a table with several, look at the data (is the
  /// value already there?) rather than at the message. A clash on an `INTEGER PRIMARY KEY` is
  /// `SQLITE_CONSTRAINT_PRIMARYKEY` (1555), not this.
  ///
  /// SQLite: <https://sqlite.org/rescode.html#constraint_unique>
  public static let constraintUnique = ResultCode(rawValue: 2067)
}
