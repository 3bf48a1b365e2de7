internal import CSQLite

/// A prepared SQL statement: bind values, step through rows, read columns.
///
/// Indexes of parameters start at 1 (as in SQL's `?1`); indexes of columns start at 0. Text
/// and blobs are bound and read with explicit byte lengths, so interior NUL bytes survive.
/// The statement is finalized when the last reference goes away.
///
/// Records are read by column name with ``nextRow()`` and ``Row``, whose conversions throw
/// instead of defaulting. The positional readers here (``int64(at:)``, ``text(at:)``...) apply
/// SQLite's own conversions (NULL as 0 or ""), for queries whose columns are not known in
/// advance, such as ad-hoc SQL.
///
/// SQLite: <https://sqlite.org/c3ref/stmt.html>
public final class Statement {
  // MARK: - Properties

  let handle: OpaquePointer
  /// The connection that prepared the statement; kept alive as long as the statement is.
  public let connection: Connection

  // MARK: - Init

  /// For a statement handed out by ``Connection/cachedStatement(_:)``: the SQL under which its
  /// handle returns to the connection's cache when this value is released.
  let cacheKey: String?
  /// Set when a step failed: such a handle is finalized instead of being cached again.
  var failed = false
  /// Result column positions by name, built by ``column(_:)`` on first use; -1 marks a name
  /// that several columns share.
  var columnIndexes: [String: Int]?

  /// For a statement handed out by ``Connection/forEachStatement(in:_:)``: `true` when only
  /// white space and comments follow it in the script, so no later statement can return rows
  /// (`inspector sql` streams such a statement's rows). `false` for other statements.
  public internal(set) var isLastInScript = false

  init(handle: OpaquePointer, connection: Connection, cacheKey: String? = nil) {
    self.handle = handle
    self.connection = connection
    self.cacheKey = cacheKey
  }

  deinit {
    if let cacheKey {
      connection.checkIn(handle, for: cacheKey, failed: failed)
    } else {
      sqlite3_finalize(handle)
    }
  }

  // MARK: - Public API

  /// The statement's SQL text, as prepared.
  public var sql: String { String(cString: sqlite3_sql(handle)) }

  /// `true` when the statement cannot change the database file by itself.
  ///
  /// SQLite: <https://sqlite.org/c3ref/stmt_readonly.html>
  public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

  /// Number of columns in each result row (0 for statements that return none).
  public var columnCount: Int { Int(sqlite3_column_count(handle)) }

  /// Names of the result columns, in order.
  public var columnNames: [String] {
    (0..<columnCount).map { String(cString: sqlite3_column_name(handle, Int32($0))) }
  }

  /// Number of parameters (the largest parameter index).
  public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

  /// The name of parameter `index` (1-based) with its prefix (`:name`, `@name`, `$name`), or
  /// `nil` for a nameless `?` parameter.
  public func parameterName(at index: Int) -> String? {
    sqlite3_bind_parameter_name(handle, Int32(index)).map { String(cString: $0) }
  }

  /// Binds one value to parameter `index` (1-based).
  ///
  /// - Throws: `SQLiteError` with ``ResultCode/range`` when the index is out of range.
  /// - SQLite: <https://sqlite.org/c3ref/bind_blob.html>
  public func bind(_ value: SQLiteValue, at index: Int) throws {
    let position = Int32(index)
    let rc: Int32
    switch value {
    case .null:
      rc = sqlite3_bind_null(handle, position)
    case .integer(let integer):
      rc = sqlite3_bind_int64(handle, position, integer)
    case .real(let double):
      rc = sqlite3_bind_double(handle, position, double)
    case .text(var text):
      rc = text.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) { chars in
          // A nil base address (empty text) would bind NULL, so bind "" explicitly.
          guard let base = chars.baseAddress, chars.count > 0 else {
            return sqlite3_bind_text64(
              handle, position, "", 0, csqlite_transient(), UInt8(SQLITE_UTF8))
          }
          return sqlite3_bind_text64(
            handle, position, base, UInt64(chars.count), csqlite_transient(),
            UInt8(SQLITE_UTF8))
        }
      }
    case .blob(let bytes):
      rc = bytes.withUnsafeBytes { raw in
        if raw.isEmpty { return sqlite3_bind_zeroblob(handle, position, 0) }
        return sqlite3_bind_blob64(
          handle, position, raw.baseAddress, UInt64(raw.count), csqlite_transient())
      }
    }
    try connection.check(rc, sql: sql)
  }

  /// Binds a value to a named parameter.
  ///
  /// - Parameters:
  ///   - value: The value; text and blobs are bound with their byte lengths.
  ///   - name: The parameter's name with its prefix, e.g. `:species`.
  /// - Throws: `SQLiteError` with ``ResultCode/range`` when the statement has no such parameter.
  public func bind(_ value: SQLiteValue, forParameter name: String) throws {
    let index = sqlite3_bind_parameter_index(handle, name)
    guard index > 0 else {
      throw SQLiteError(extendedCode: .range, message: "no parameter named \(name)", sql: sql)
    }
    try bind(value, at: Int(index))
  }

  /// Clears earlier bindings, then binds `values` to parameters 1, 2, ... in order.
  ///
  /// - Throws: `SQLiteError` with ``ResultCode/range`` when there are more values than
  ///   parameters.
  public func bind(_ values: [any SQLiteBindable]) throws {
    sqlite3_clear_bindings(handle)
    for (offset, value) in values.enumerated() {
      try bind(value.sqliteValue, at: offset + 1)
    }
  }

  /// Advances to the next row.
  ///
  /// - Returns: `true` when a row is ready to read, `false` when the statement has finished.
  /// - Throws: `SQLiteError`: ``ResultCode/constraint`` for a refused write,
  ///   ``ResultCode/busy`` when a lock is held past the busy timeout, ``ResultCode/readOnly``
  ///   for a write on a read-only connection, and so on.
  /// - SQLite: <https://sqlite.org/c3ref/step.html>
  @discardableResult
  public func step() throws -> Bool {
    let rc = sqlite3_step(handle)
    switch rc {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default:
      let failure = connection.error(code: rc, sql: sql)
      sqlite3_reset(handle)
      failed = true
      throw failure
    }
  }

  /// Rewinds the statement so that it can run again; bindings are kept.
  ///
  /// SQLite: <https://sqlite.org/c3ref/reset.html>
  public func reset() {
    sqlite3_reset(handle)
  }

  /// Rewinds, binds `values` to parameters 1, 2, ... and runs the statement to completion,
  /// discarding rows. The fast path for one statement reused across many rows.
  ///
  /// - Throws: `SQLiteError` from binding or stepping; the statement is left reset.
  public func run(_ values: [any SQLiteBindable]) throws {
    sqlite3_reset(handle)
    try bind(values)
    while try step() {}
    sqlite3_reset(handle)
  }

  /// Whether column `index` (0-based) of the current row holds SQL NULL.
  ///
  /// Reads the value's storage class, so an empty string or a zero is not NULL. Call it after
  /// ``step()`` returned `true` and before reading the same column with a converting accessor
  /// such as ``int64(at:)`` or ``text(at:)``: after such a conversion SQLite no longer promises
  /// a meaningful storage class.
  ///
  /// - SQLite: <https://sqlite.org/c3ref/column_blob.html>
  public func isNull(at index: Int) -> Bool {
    sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
  }

  /// Column `index` of the current row as a 64-bit integer (SQLite's conversion rules apply:
  /// NULL is 0, text is parsed).
  public func int64(at index: Int) -> Int64 {
    sqlite3_column_int64(handle, Int32(index))
  }

  /// Column `index` of the current row as a double (NULL is 0.0).
  public func double(at index: Int) -> Double {
    sqlite3_column_double(handle, Int32(index))
  }

  /// Column `index` of the current row as text, read with its byte length (NULL is "";
  /// invalid UTF-8 is repaired with U+FFFD).
  public func text(at index: Int) -> String {
    let position = Int32(index)
    guard let bytes = sqlite3_column_text(handle, position) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, position))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// Column `index` of the current row as text, or `nil` when it is NULL.
  public func optionalText(at index: Int) -> String? {
    isNull(at: index) ? nil : text(at: index)
  }

  /// Column `index` of the current row as bytes (NULL and empty blobs are `[]`).
  public func blob(at index: Int) -> [UInt8] {
    let position = Int32(index)
    guard let bytes = sqlite3_column_blob(handle, position) else { return [] }
    let count = Int(sqlite3_column_bytes(handle, position))
    return Array(UnsafeRawBufferPointer(start: bytes, count: count))
  }

  /// Column `index` of the current row in its own storage class.
  public func value(at index: Int) -> SQLiteValue {
    switch sqlite3_column_type(handle, Int32(index)) {
    case SQLITE_INTEGER: return .integer(int64(at: index))
    case SQLITE_FLOAT: return .real(double(at: index))
    case SQLITE_TEXT: return .text(text(at: index))
    case SQLITE_BLOB: return .blob(blob(at: index))
    default: return .null
    }
  }

  /// Column `index` of the current row in its own storage class, text and blobs as the bytes
  /// SQLite holds (not copied, text not checked or repaired as UTF-8), for reading millions of
  /// values without allocating (the history's seals, `check`). The bytes stay valid only until
  /// the statement steps, resets or converts the column (read it again as another type); copy
  /// what must outlive that.
  ///
  /// - SQLite: <https://sqlite.org/c3ref/column_blob.html>
  public func rawValue(at index: Int) -> RawValue {
    // One lookup of the column's value, then the value's own accessors: each `sqlite3_column_*`
    // call would look the column up again and check the connection's error state.
    let value = sqlite3_column_value(handle, Int32(index))
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: return .integer(sqlite3_value_int64(value))
    case SQLITE_FLOAT: return .real(sqlite3_value_double(value))
    case SQLITE_TEXT:
      let bytes = sqlite3_value_text(value)
      let count = Int(sqlite3_value_bytes(value))
      return .text(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count))
    case SQLITE_BLOB:
      let bytes = sqlite3_value_blob(value)
      let count = Int(sqlite3_value_bytes(value))
      return .blob(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count))
    default: return .null
    }
  }

  /// A column's value as ``rawValue(at:)`` returns it: text and blobs as SQLite's own bytes,
  /// valid only until the statement moves.
  public enum RawValue {
    /// SQL NULL.
    case null
    /// An integer.
    case integer(Int64)
    /// A real (IEEE 754 double).
    case real(Double)
    /// Text: its bytes as stored (UTF-8 unless another client stored otherwise).
    case text(UnsafeRawBufferPointer)
    /// A blob's bytes.
    case blob(UnsafeRawBufferPointer)
  }

  /// All columns of the current row, in order.
  public func row() -> [SQLiteValue] {
    (0..<columnCount).map { value(at: $0) }
  }
}
