/// A JSON value whose objects keep their keys in the order given.
///
/// The `json` output format (docs/output-formats.md "json"): `sql --json` needs objects
/// whose keys follow the result's column order, which `JSONEncoder` cannot
/// promise, and every other command may use it too. Build values with the
/// cases or with literals (`["id": 1, "name": "Catie", "emoji": nil]` keeps
/// that key order), then call ``serialized(pretty:)``.
///
/// Numbers: ``integer(_:)`` prints every `Int64` exactly, `Int64.min` and
/// `Int64.max` included; ``double(_:)`` prints the shortest text that reads back
/// to the same `Double`, always with a fraction or exponent (`1.0`, `0.1`,
/// `1e+16`), and prints NaN and the infinities as `null`.
///
/// The commands' records are written straight to text by their one ``JSONRecordWriter`` each,
/// laid out as a value built here serialises (the escapes, numbers and indentation are these);
/// tests build values to state the text they expect.
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
    var output = UTF8Buffer()
    write(to: &output, pretty: pretty, indent: nestedLevels)
    return output.text
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
    var output = UTF8Buffer()
    writeString(string, to: &output)
    return output.text
  }

  // MARK: - Private helpers

  private var isScalar: Bool {
    switch self {
    case .array, .object: return false
    default: return true
    }
  }

  /// Appends the value's JSON text to `output`; `indent` is its nesting level in pretty text.
  func write(to output: inout UTF8Buffer, pretty: Bool, indent: Int) {
    switch self {
    case .null:
      output.append("null")
    case .bool(let value):
      output.append(value ? "true" : "false")
    case .integer(let value):
      output.append(value)
    case .double(let value):
      Self.writeNumber(value, to: &output)
    case .string(let value):
      Self.writeString(value, to: &output)
    case .array(let elements):
      guard !elements.isEmpty else {
        output.append("[]")
        return
      }
      if !pretty || elements.allSatisfy(\.isScalar) {
        output.append(byte: UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
          if index > 0 { output.append(pretty ? ", " : ",") }
          element.write(to: &output, pretty: pretty, indent: indent)
        }
        output.append(byte: UInt8(ascii: "]"))
        return
      }
      output.append(byte: UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        output.append(index > 0 ? ",\n" : "\n")
        Self.writeIndent(indent + 1, to: &output)
        element.write(to: &output, pretty: true, indent: indent + 1)
      }
      output.append(byte: UInt8(ascii: "\n"))
      Self.writeIndent(indent, to: &output)
      output.append(byte: UInt8(ascii: "]"))
    case .object(let members):
      var object = JSONObjectWriter(pretty: pretty, indent: indent, to: &output)
      for (key, value) in members {
        object.member(key, to: &output)
        value.write(to: &output, pretty: pretty, indent: indent + 1)
      }
      object.finish(to: &output)
    }
  }

  /// Appends an array of strings as ``array(_:)`` of ``string(_:)``s writes it, `null` for each
  /// `nil` (a favourite whose fruit row is gone): on one line, `", "` between elements in pretty
  /// text and `","` in compact text.
  static func writeStrings(_ strings: [String?], pretty: Bool, to output: inout UTF8Buffer) {
    output.append(byte: UInt8(ascii: "["))
    for (index, string) in strings.enumerated() {
      if index > 0 { output.append(pretty ? ", " : ",") }
      if let string { writeString(string, to: &output) } else { output.append("null") }
    }
    output.append(byte: UInt8(ascii: "]"))
  }

  /// Two spaces per level.
  static func writeIndent(_ level: Int, to output: inout UTF8Buffer) {
    output.append(byte: UInt8(ascii: " "), count: 2 * level)
  }

  /// Shortest round-trip text (`Double.description`), which always carries a
  /// "." or an exponent and so never reads back as an integer; `null` for NaN and infinities.
  static func writeNumber(_ value: Double, to output: inout UTF8Buffer) {
    guard value.isFinite else {
      output.append("null")
      return
    }
    output.append(value)
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// Appends `string` as a quoted JSON string literal (see ``serialized(pretty:)``).
  ///
  /// Works on UTF-8 bytes: every byte that needs an escape is ASCII, and the bytes of a
  /// non-ASCII character are all 0x80 or above, so runs of plain bytes are copied as they are.
  static func writeString(_ string: String, to output: inout UTF8Buffer) {
    output.append(byte: UInt8(ascii: "\""))
    string.withUTF8Bytes { bytes in
      var plainStart = 0
      for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
        output.append(bytes: bytes[plainStart..<index])
        plainStart = index + 1
        switch byte {
        case 0x22: output.append("\\\"")
        case 0x5C: output.append("\\\\")
        case 0x08: output.append("\\b")
        case 0x09: output.append("\\t")
        case 0x0A: output.append("\\n")
        case 0x0C: output.append("\\f")
        case 0x0D: output.append("\\r")
        default:
          output.append("\\u00")
          output.append(byte: hexDigits[Int(byte >> 4)])
          output.append(byte: hexDigits[Int(byte & 0xF)])
        }
      }
      output.append(bytes: bytes[plainStart...])
    }
    output.append(byte: UInt8(ascii: "\""))
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
