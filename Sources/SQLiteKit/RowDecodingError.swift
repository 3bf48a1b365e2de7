/// A column of a result row that a ``Row`` reader could not read as asked: the name is not one
/// of the statement's columns, or the stored value is not of the storage class asked for.
///
/// Readers never substitute a default (SQLite's own conversions turn NULL into 0 and `'abc'`
/// into 0); a value another client stored with the wrong type is this error instead.
///
/// SQLite: <https://sqlite.org/c3ref/column_blob.html>, <https://sqlite.org/datatype3.html>
public struct RowDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Equatable, Sendable {
    /// The statement has no result column of this name (a programmer error: the `SELECT` and
    /// its reader disagree).
    case unknownColumn
    /// Two or more result columns have this name, so a name cannot say which one is meant
    /// (give them distinct `AS` names).
    case ambiguousColumn
    /// The column holds `found`, which is not of the `expected` storage class (NULL asked of a
    /// non-optional reader is `found: .null`).
    case mismatch(expected: StorageClass, found: SQLiteValue)
  }

  /// The column's name, as the reader asked for it.
  public let column: String
  /// What went wrong.
  public let reason: Reason
  /// The statement's SQL text.
  public let sql: String

  /// Creates an error for column `column` of the statement with SQL text `sql`.
  public init(column: String, reason: Reason, sql: String) {
    self.column = column
    self.reason = reason
    self.sql = sql
  }

  /// `column level holds text, expected real [SQL: ...]`; stored values are not shown.
  public var description: String {
    let problem =
      switch reason {
      case .unknownColumn: "no result column named \(column)"
      case .ambiguousColumn: "several result columns are named \(column)"
      case .mismatch(let expected, let found):
        "column \(column) holds \(found.storageClass.rawValue), expected \(expected.rawValue)"
      }
    return "\(problem) [SQL: \(sql)]"
  }
}
