/// One SQLite value, in one of SQLite's five storage classes.
///
/// Text is Swift `String` (UTF-8, interior NUL bytes kept); blobs are raw bytes.
///
/// Two values are equal as SQLite's `IS` compares them: the same storage class and the same
/// value, text byte for byte (its UTF-8). Swift's `String` equality would also call equal
/// texts that differ in their bytes (`café` composed and decomposed, `Ω` and the ohm sign),
/// which SQLite stores, and the history records, as different values.
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
  /// Whether `lhs` and `rhs` are the same storage class and value; text is compared byte for
  /// byte (see ``SQLiteValue``), reals as `Double`s.
  public static func == (lhs: SQLiteValue, rhs: SQLiteValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.integer(let left), .integer(let right)): left == right
    case (.real(let left), .real(let right)): left == right
    case (.text(let left), .text(let right)): left.utf8.elementsEqual(right.utf8)
    case (.blob(let left), .blob(let right)): left == right
    default: false
    }
  }

  /// Hashes the value: text by its bytes, as ``==(_:_:)`` compares it.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .integer(let value):
      hasher.combine(1)
      hasher.combine(value)
    case .real(let value):
      hasher.combine(2)
      hasher.combine(value)
    case .text(let value):
      hasher.combine(3)
      var text = value
      text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    case .blob(let value):
      hasher.combine(4)
      hasher.combine(value)
    }
  }

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
