/// A JSON value whose objects keep their keys in the order given.
///
/// The `json` output format of README "A short tour": `sql --json` needs objects
/// whose keys follow the result's column order, which `JSONEncoder` cannot
/// promise, and every other command may use it too. Build values with the
/// cases or with literals (`["id": 1, "name": "Catie", "emoji": nil]` keeps
/// that key order), then call ``serialized(pretty:)``.
///
/// Numbers: ``integer(_:)`` prints every `Int64` exactly, `Int64.min` and
/// `Int64.max` included; ``double(_:)`` prints the shortest text that reads back
/// to the same `Double`, always with a fraction or exponent (`1.0`, `0.1`,
/// `1e+16`), and prints NaN and the infinities as `null`.
public enum JSONValue: Sendable, Equatable {
  /// `null`: an absent value (SQL NULL, a suspect without an emoji).
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// An integer, printed exactly.
  case integer(Int64)
  /// A floating-point number; NaN and ±infinity print as `null`.
  case double(Double)
  /// A string, escaped per RFC 8259.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object, its members in the order given. Duplicate keys are printed as
  /// given; avoid them.
  case object([(String, JSONValue)])

  // MARK: - Public API

  /// Serialises the value as JSON text.
  ///
  /// Compact output has no whitespace at all: `{"a":[1,2],"b":null}`.
  ///
  /// Pretty output indents by two spaces and writes members as `"key": value`,
  /// one per line. An array holding only scalars (and no objects or arrays)
  /// stays on one line as `[1, 2, 3]`; any other array puts each element on its
  /// own line, so an array of objects shows one object after another. Empty
  /// arrays and objects print as `[]` and `{}`.
  ///
  /// Strings are escaped per RFC 8259 section 7: `"` and `\` get a backslash;
  /// U+0008, U+0009, U+000A, U+000C and U+000D print as `\b`, `\t`, `\n`, `\f`,
  /// `\r`; every other control character below U+0020 (NUL included) prints as
  /// `\u00XX` with lower-case hex; `/` and all non-ASCII characters are written
  /// as-is (UTF-8).
  ///
  /// - Parameter pretty: `false` for compact text, `true` for indented text.
  /// - Returns: The JSON text, with no trailing newline.
  public func serialized(pretty: Bool = false) -> String {
    serialized(pretty: pretty, nestedLevels: 0)
  }

  /// ``serialized(pretty:)`` for a value written `nestedLevels` deep inside a pretty array or
  /// object, so its inner lines carry that indentation too (a streamed listing's elements).
  func serialized(pretty: Bool, nestedLevels: Int) -> String {
    var output = ""
    write(to: &output, pretty: pretty, indent: nestedLevels)
    return output
  }

  /// Compares two values structurally; objects are equal when they hold the
  /// same members in the same order.
  ///
  /// Doubles compare with `==`, so `.double(.nan)` is not equal to itself.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.integer(let a), .integer(let b)): return a == b
    case (.double(let a), .double(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: return false
    }
  }

  /// Escapes `string` as a JSON string literal, quotes included.
  ///
  /// The rules of ``serialized(pretty:)``: RFC 8259 escapes, non-ASCII and `/` as-is.
  ///
  /// - Parameter string: Any text; interior NULs become `\u0000`.
  /// - Returns: The quoted, escaped literal.
  public static func quoted(_ string: String) -> String {
    var output = ""
    writeString(string, to: &output)
    return output
  }

  // MARK: - Private helpers

  private var isScalar: Bool {
    switch self {
    case .array, .object: return false
    default: return true
    }
  }

  private func write(to output: inout String, pretty: Bool, indent: Int) {
    switch self {
    case .null:
      output += "null"
    case .bool(let value):
      output += value ? "true" : "false"
    case .integer(let value):
      output += String(value)
    case .double(let value):
      output += Self.number(value)
    case .string(let value):
      Self.writeString(value, to: &output)
    case .array(let elements):
      guard !elements.isEmpty else {
        output += "[]"
        return
      }
      if !pretty || elements.allSatisfy(\.isScalar) {
        output += "["
        for (index, element) in elements.enumerated() {
          if index > 0 { output += pretty ? ", " : "," }
          element.write(to: &output, pretty: pretty, indent: indent)
        }
        output += "]"
        return
      }
      output += "["
      for (index, element) in elements.enumerated() {
        output += index > 0 ? ",\n" : "\n"
        Self.writeIndent(indent + 1, to: &output)
        element.write(to: &output, pretty: true, indent: indent + 1)
      }
      output += "\n"
      Self.writeIndent(indent, to: &output)
      output += "]"
    case .object(let members):
      guard !members.isEmpty else {
        output += "{}"
        return
      }
      output += "{"
      for (index, (key, value)) in members.enumerated() {
        if pretty {
          output += index > 0 ? ",\n" : "\n"
          Self.writeIndent(indent + 1, to: &output)
        } else if index > 0 {
          output += ","
        }
        Self.writeString(key, to: &output)
        output += pretty ? ": " : ":"
        value.write(to: &output, pretty: pretty, indent: indent + 1)
      }
      if pretty {
        output += "\n"
        Self.writeIndent(indent, to: &output)
      }
      output += "}"
    }
  }

  private static func writeIndent(_ level: Int, to output: inout String) {
    output += String(repeating: "  ", count: level)
  }

  /// Shortest round-trip text (`Double.description`), which always carries a
  /// "." or an exponent and so never reads back as an integer.
  private static func number(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    return value.description
  }

  private static let hexDigits: [Character] = Array("0123456789abcdef")

  private static func writeString(_ string: String, to output: inout String) {
    output += "\""
    var plainStart = string.unicodeScalars.startIndex
    let scalars = string.unicodeScalars
    var index = scalars.startIndex
    while index < scalars.endIndex {
      let scalar = scalars[index]
      let escape: String?
      switch scalar.value {
      case 0x22: escape = "\\\""
      case 0x5C: escape = "\\\\"
      case 0x08: escape = "\\b"
      case 0x09: escape = "\\t"
      case 0x0A: escape = "\\n"
      case 0x0C: escape = "\\f"
      case 0x0D: escape = "\\r"
      case 0x00..<0x20:
        let high = hexDigits[Int(scalar.value >> 4)]
        let low = hexDigits[Int(scalar.value & 0xF)]
        escape = "\\u00" + String(high) + String(low)
      default: escape = nil
      }
      if let escape {
        output += String(scalars[plainStart..<index])
        output += escape
        plainStart = scalars.index(after: index)
      }
      index = scalars.index(after: index)
    }
    output += String(scalars[plainStart..<scalars.endIndex])
    output += "\""
  }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
  /// Creates ``null``.
  public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
  /// Creates ``bool(_:)``.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
  /// Creates ``integer(_:)``.
  public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
  /// Creates ``double(_:)``.
  public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
  /// Creates ``string(_:)``.
  public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
  /// Creates ``array(_:)``.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
  /// Creates ``object(_:)`` with the members in the order written.
  public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }
}

// MARK: - Optionals

extension JSONValue {
  /// Wraps an optional string: ``string(_:)``, or ``null`` when `nil`.
  ///
  /// - Parameter value: The string or `nil`.
  public init(_ value: String?) { self = value.map(JSONValue.string) ?? .null }

  /// Wraps an optional integer: ``integer(_:)``, or ``null`` when `nil`.
  ///
  /// - Parameter value: The integer or `nil`.
  public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }

  /// Wraps an optional 64-bit integer: ``integer(_:)``, or ``null`` when `nil`.
  ///
  /// - Parameter value: The integer or `nil`.
  public init(_ value: Int64?) { self = value.map(JSONValue.integer) ?? .null }

  /// Wraps an optional double: ``double(_:)``, or ``null`` when `nil`.
  ///
  /// - Parameter value: The number or `nil`; NaN and infinities still print as `null`.
  public init(_ value: Double?) { self = value.map(JSONValue.double) ?? .null }

  /// Wraps an optional Boolean: ``bool(_:)``, or ``null`` when `nil`.
  ///
  /// - Parameter value: The Boolean or `nil`.
  public init(_ value: Bool?) { self = value.map(JSONValue.bool) ?? .null }
}
