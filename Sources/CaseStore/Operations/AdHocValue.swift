import SQLiteKit

/// One value of a row in an ad-hoc query's result (``AdHocQuery/Result/values``), in one of
/// SQLite's five storage classes.
///
/// SQLite: <https://sqlite.org/datatype3.html>
public enum AdHocValue: Equatable, Hashable, Sendable {
  /// SQL `NULL`.
  case null
  /// A 64-bit signed integer.
  case integer(Int64)
  /// A double.
  case real(Double)
  /// Text.
  case text(String)
  /// Raw bytes.
  case blob([UInt8])

  /// The same value in the case store's terms.
  init(_ value: SQLiteValue) {
    switch value {
    case .null: self = .null
    case .integer(let integer): self = .integer(integer)
    case .real(let double): self = .real(double)
    case .text(let text): self = .text(text)
    case .blob(let bytes): self = .blob(bytes)
    }
  }
}
