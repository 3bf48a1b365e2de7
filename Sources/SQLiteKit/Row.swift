internal import CSQLite

/// The current row of a ``Statement``, read by column name with strict, throwing conversions.
///
/// Each reader checks the value's storage class (`sqlite3_column_type`) before converting it,
/// so a stored value of the wrong type is a ``RowDecodingError``, never SQLite's silent
/// default (NULL as 0 or "", `'abc'` as 0):
///
/// | Reader                         | Accepts                         | NULL        |
/// |--------------------------------|---------------------------------|-------------|
/// | ``int64(_:)-(String)``         | `INTEGER`                       | error       |
/// | ``double(_:)-(String)``        | `REAL`, or `INTEGER` (converted) | error       |
/// | ``text(_:)-(String)``          | `TEXT`                          | error       |
/// | ``blob(_:)-(String)``          | `BLOB`                          | error       |
/// | `optional...` readers          | as above                        | `nil`       |
/// | ``value(_:)-(String)``         | anything                        | ``SQLiteValue/null`` |
///
/// Every other storage class is an error: `REAL` asked as an integer (even `2.0`), `INTEGER`
/// asked as text, `TEXT` asked as a number. Columns are named by their `AS` name (see
/// ``Statement/column(_:)``); each reader also takes a ``Column`` resolved once per statement,
/// for loops over many rows.
///
/// A row is a view of its statement's current row: read it before the statement steps again.
///
/// SQLite: <https://sqlite.org/c3ref/column_blob.html>, <https://sqlite.org/datatype3.html>
public struct Row {
  /// The statement whose current row this is.
  public let statement: Statement

  // MARK: - By name

  /// The `INTEGER` in column `name`.
  ///
  /// - Throws: ``RowDecodingError`` for an unknown or ambiguous name, or a value that is not an
  ///   `INTEGER` (NULL included).
  public func int64(_ name: String) throws -> Int64 { try int64(statement.column(name)) }

  /// The `INTEGER` in column `name`, or `nil` for NULL.
  ///
  /// - Throws: ``RowDecodingError`` for an unknown or ambiguous name, or a value that is
  ///   neither NULL nor an `INTEGER`.
  public func optionalInt64(_ name: String) throws -> Int64? {
    try optionalInt64(statement.column(name))
  }

  /// The number in column `name`: a `REAL`, or an `INTEGER` converted to `Double`.
  ///
  /// - Throws: ``RowDecodingError`` for an unknown or ambiguous name, or a value that is
  ///   neither `REAL` nor `INTEGER` (NULL included).
  public func double(_ name: String) throws -> Double { try double(statement.column(name)) }

  /// The number in column `name` (as ``double(_:)-(String)``), or `nil` for NULL.
  ///
  /// - Throws: ``RowDecodingError`` for an unknown or ambiguous name, or a text or blob value.
  public func optionalDouble(_ name: String) throws -> Double? {
    try optionalDouble(statement.column(name))
  }

  /// The `TEXT` in column `name`, read with its byte length (interior NUL bytes kept; invalid
  /// UTF-8 repaired with U+FFFD).
  ///
  /// - Throws: ``RowDecodingError`` for an unknown or ambiguous name, or a value that is not
  ///   `TEXT` (NULL included).
  public func text(_ name: String) throws -> String { try text(statement.column(name)) }

  /// The `TEXT` in column `name`, or `nil` for NULL.
  ///
  /// - Throws: ``RowDecodingError`` for an unknown or ambiguous name, or a value that is
  ///   neither NULL nor `TEXT`.
  public func optionalText(_ name: String) throws -> String? {
    try optionalText(statement.column(name))
  }

  /// The `BLOB` in column `name`, as bytes.
  ///
  /// - Throws: ``RowDecodingError`` for an unknown or ambiguous name, or a value that is not a
  ///   `BLOB` (NULL included).
  public func blob(_ name: String) throws -> [UInt8] { try blob(statement.column(name)) }

  /// The `BLOB` in column `name`, or `nil` for NULL.
  ///
  /// - Throws: ``RowDecodingError`` for an unknown or ambiguous name, or a value that is
  ///   neither NULL nor a `BLOB`.
  public func optionalBlob(_ name: String) throws -> [UInt8]? {
    try optionalBlob(statement.column(name))
  }

  /// The value in column `name`, in its own storage class.
  ///
  /// - Throws: ``RowDecodingError`` for an unknown or ambiguous name.
  public func value(_ name: String) throws -> SQLiteValue { value(try statement.column(name)) }

  // MARK: - By resolved column

  /// The `INTEGER` in `column` (see ``int64(_:)-(String)``).
  ///
  /// - Throws: ``RowDecodingError`` for a value that is not an `INTEGER`.
  public func int64(_ column: Column) throws -> Int64 {
    try require(.integer, in: column)
    return statement.int64(at: column.index)
  }

  /// The `INTEGER` in `column`, or `nil` for NULL.
  ///
  /// - Throws: ``RowDecodingError`` for a value that is neither NULL nor an `INTEGER`.
  public func optionalInt64(_ column: Column) throws -> Int64? {
    switch storageClass(of: column) {
    case .null: nil
    case .integer: statement.int64(at: column.index)
    default: throw mismatch(column, expected: .integer)
    }
  }

  /// The `REAL` or `INTEGER` in `column`, as a double (see ``double(_:)-(String)``).
  ///
  /// - Throws: ``RowDecodingError`` for a value that is neither `REAL` nor `INTEGER`.
  public func double(_ column: Column) throws -> Double {
    let found = storageClass(of: column)
    guard found == .real || found == .integer else { throw mismatch(column, expected: .real) }
    return statement.double(at: column.index)
  }

  /// The number in `column`, or `nil` for NULL.
  ///
  /// - Throws: ``RowDecodingError`` for a text or blob value.
  public func optionalDouble(_ column: Column) throws -> Double? {
    switch storageClass(of: column) {
    case .null: nil
    case .real, .integer: statement.double(at: column.index)
    default: throw mismatch(column, expected: .real)
    }
  }

  /// The `TEXT` in `column` (see ``text(_:)-(String)``).
  ///
  /// - Throws: ``RowDecodingError`` for a value that is not `TEXT`.
  public func text(_ column: Column) throws -> String {
    try require(.text, in: column)
    return statement.text(at: column.index)
  }

  /// The `TEXT` in `column`, or `nil` for NULL.
  ///
  /// - Throws: ``RowDecodingError`` for a value that is neither NULL nor `TEXT`.
  public func optionalText(_ column: Column) throws -> String? {
    switch storageClass(of: column) {
    case .null: nil
    case .text: statement.text(at: column.index)
    default: throw mismatch(column, expected: .text)
    }
  }

  /// The `BLOB` in `column`, as bytes.
  ///
  /// - Throws: ``RowDecodingError`` for a value that is not a `BLOB`.
  public func blob(_ column: Column) throws -> [UInt8] {
    try require(.blob, in: column)
    return statement.blob(at: column.index)
  }

  /// The `BLOB` in `column`, or `nil` for NULL.
  ///
  /// - Throws: ``RowDecodingError`` for a value that is neither NULL nor a `BLOB`.
  public func optionalBlob(_ column: Column) throws -> [UInt8]? {
    switch storageClass(of: column) {
    case .null: nil
    case .blob: statement.blob(at: column.index)
    default: throw mismatch(column, expected: .blob)
    }
  }

  /// The value in `column`, in its own storage class.
  public func value(_ column: Column) -> SQLiteValue { statement.value(at: column.index) }

  // MARK: - Private helpers

  private func storageClass(of column: Column) -> StorageClass {
    StorageClass(columnType: sqlite3_column_type(statement.handle, Int32(column.index)))
  }

  private func require(_ expected: StorageClass, in column: Column) throws {
    guard storageClass(of: column) == expected else { throw mismatch(column, expected: expected) }
  }

  private func mismatch(_ column: Column, expected: StorageClass) -> RowDecodingError {
    RowDecodingError(
      column: column.name,
      reason: .mismatch(expected: expected, found: statement.value(at: column.index)),
      sql: statement.sql)
  }
}
