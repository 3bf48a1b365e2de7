internal import CSQLite

/// One of SQLite's five storage classes: how a value is actually stored, whatever the column's
/// declared type.
///
/// SQLite: <https://sqlite.org/datatype3.html>, <https://sqlite.org/c3ref/column_blob.html>
public enum StorageClass: String, Equatable, Hashable, Sendable {
  /// `NULL`.
  case null
  /// `INTEGER`: a 64-bit signed integer.
  case integer
  /// `REAL`: an IEEE 754 double.
  case real
  /// `TEXT`.
  case text
  /// `BLOB`.
  case blob

  /// The class `sqlite3_column_type` reports (`SQLITE_INTEGER` ...); `NULL` for anything else.
  init(columnType: Int32) {
    switch columnType {
    case SQLITE_INTEGER: self = .integer
    case SQLITE_FLOAT: self = .real
    case SQLITE_TEXT: self = .text
    case SQLITE_BLOB: self = .blob
    default: self = .null
    }
  }
}

extension SQLiteValue {
  /// The value's storage class.
  public var storageClass: StorageClass {
    switch self {
    case .null: .null
    case .integer: .integer
    case .real: .real
    case .text: .text
    case .blob: .blob
    }
  }
}
