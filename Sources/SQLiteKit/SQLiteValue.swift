/// One SQLite value, in one of SQLite's five storage classes.
///
/// Text is Swift `String` (UTF-8, interior NUL bytes kept); blobs are raw bytes.
///
/// SQLite: <https://sqlite.org/datatype3.html>
public enum SQLiteValue: Equatable, Hashable, Sendable {
  /// SQL `NULL`.
  case null
  /// A 64-bit signed integer.
  case integer(Int64)
  /// An IEEE 754 double. SQLite stores NaN as `NULL`.
  case real(Double)
  /// UTF-8 text, bound and read with an explicit byte length.
  case text(String)
  /// Raw bytes.
  case blob([UInt8])
}

extension SQLiteValue {
  /// The integer, or `nil` when the value is not `.integer`.
  public var integerValue: Int64? {
    if case .integer(let value) = self { return value }
    return nil
  }

  /// The double (integers converted), or `nil` for null, text and blob.
  public var doubleValue: Double? {
    switch self {
    case .real(let value): return value
    case .integer(let value): return Double(value)
    default: return nil
    }
  }

  /// The text, or `nil` when the value is not `.text`.
  public var textValue: String? {
    if case .text(let value) = self { return value }
    return nil
  }

  /// `true` for SQL `NULL`.
  public var isNull: Bool { self == .null }
}

extension SQLiteValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral
{
  /// `nil` is SQL `NULL`.
  public init(nilLiteral: ()) { self = .null }
  /// An integer literal is `.integer`.
  public init(integerLiteral value: Int64) { self = .integer(value) }
  /// A float literal is `.real`.
  public init(floatLiteral value: Double) { self = .real(value) }
  /// A string literal is `.text`.
  public init(stringLiteral value: String) { self = .text(value) }
}

/// A Swift value that can be bound to a statement parameter.
public protocol SQLiteBindable {
  /// The value as SQLite stores it.
  var sqliteValue: SQLiteValue { get }
}

extension SQLiteValue: SQLiteBindable {
  /// The value itself.
  public var sqliteValue: SQLiteValue { self }
}
extension Int: SQLiteBindable {
  /// `.integer`.
  public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}
extension Int64: SQLiteBindable {
  /// `.integer`.
  public var sqliteValue: SQLiteValue { .integer(self) }
}
extension Double: SQLiteBindable {
  /// `.real`.
  public var sqliteValue: SQLiteValue { .real(self) }
}
extension String: SQLiteBindable {
  /// `.text`.
  public var sqliteValue: SQLiteValue { .text(self) }
}
extension Bool: SQLiteBindable {
  /// `.integer(1)` or `.integer(0)`.
  public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
}
extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
  /// The wrapped value, or `.null`.
  public var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
}
