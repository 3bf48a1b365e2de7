/// Builds CSV text per RFC 4180: a header record, then one record per row.
///
/// The `csv` output format (docs/output-formats.md "csv"). A field is quoted when it
/// holds a comma, a double quote, CR or LF, starts or ends with a space or tab,
/// or is the empty string; quotes inside are doubled. A `nil` field (SQL NULL,
/// an absent value) is written empty and unquoted, so `""` (empty text) and
/// NULL stay distinguishable, as `sqlite3 -csv` does. Every record, the last
/// included, ends with CRLF ("\r\n", RFC 4180 section 2).
///
/// ```swift
/// var csv = CSVWriter(header: ["name", "alibi"])
/// csv.append(["Catie", "he said \"hi\", then left\n"])
/// // csv.text == "name,alibi\r\nCatie,\"he said \"\"hi\"\", then left\n\"\r\n"
/// ```
public struct CSVWriter: Sendable {
  // MARK: - Properties

  /// The record terminator: CRLF, as RFC 4180 requires.
  public static let lineEnding = "\r\n"

  /// The CSV written so far: the header record and every appended record,
  /// each ending with ``lineEnding``.
  public private(set) var text: String

  // MARK: - Init

  /// Starts a document with its header record.
  ///
  /// - Parameter header: Column names, written as the first record.
  public init(header: [String]) {
    text = Self.record(header)
  }

  // MARK: - Public API

  /// Appends one record.
  ///
  /// - Parameter fields: The values; `nil` is written as an empty, unquoted field.
  public mutating func append(_ fields: [String?]) {
    text += Self.record(fields)
  }

  /// Appends one record of non-optional values.
  ///
  /// - Parameter fields: The values.
  public mutating func append(_ fields: [String]) {
    text += Self.record(fields)
  }

  /// Renders a whole document: the header record, then each row.
  ///
  /// - Parameters:
  ///   - header: Column names.
  ///   - rows: Records; `nil` fields are written empty and unquoted.
  /// - Returns: The CSV text, every record ending with CRLF.
  public static func document(header: [String], rows: [[String?]]) -> String {
    var writer = CSVWriter(header: header)
    for row in rows { writer.append(row) }
    return writer.text
  }

  /// Renders one record, including its CRLF terminator.
  ///
  /// - Parameter fields: The values; `nil` is written as an empty, unquoted field.
  /// - Returns: The fields escaped with ``field(_:)`` and joined by commas, then "\r\n".
  public static func record(_ fields: [String?]) -> String {
    fields.map(field).joined(separator: ",") + lineEnding
  }

  /// Renders one record of non-optional values, including its CRLF terminator.
  ///
  /// - Parameter fields: The values.
  /// - Returns: The fields escaped with ``field(_:)`` and joined by commas, then "\r\n".
  public static func record(_ fields: [String]) -> String {
    fields.map { field($0) }.joined(separator: ",") + lineEnding
  }

  /// Appends one record, including its CRLF terminator, as ``record(_:)-(_:[String?])`` renders
  /// it.
  ///
  /// - Parameters:
  ///   - fields: The values; `nil` is written as an empty, unquoted field.
  ///   - output: Where the record goes.
  static func appendRecord(_ fields: [String?], to output: inout UTF8Buffer) {
    for (index, field) in fields.enumerated() {
      if index > 0 { output.append(byte: UInt8(ascii: ",")) }
      if let field { appendField(field, to: &output) }
    }
    output.append("\r\n")
  }

  /// Appends one field as ``field(_:)`` escapes it (`nil` is nothing: an empty field).
  static func appendField(_ value: String, to output: inout UTF8Buffer) {
    guard needsQuoting(value) else {
      output.append(value)
      return
    }
    output.append(byte: UInt8(ascii: "\""))
    for byte in value.utf8 {
      // A quote is ASCII, so it is never part of a multi-byte character.
      if byte == UInt8(ascii: "\"") { output.append(byte: byte) }
      output.append(byte: byte)
    }
    output.append(byte: UInt8(ascii: "\""))
  }

  /// Escapes one field.
  ///
  /// - Parameter value: The value, or `nil` for an absent value.
  /// - Returns: `value` unchanged when it needs no quoting; otherwise wrapped in
  ///   double quotes with inner quotes doubled; "" for `nil`.
  public static func field(_ value: String?) -> String {
    guard let value else { return "" }
    guard needsQuoting(value) else { return value }
    var quoted = "\""
    for character in value.unicodeScalars {
      if character == "\"" { quoted += "\"" }
      quoted.unicodeScalars.append(character)
    }
    quoted += "\""
    return quoted
  }

  // MARK: - Private helpers

  private static func needsQuoting(_ value: String) -> Bool {
    guard let first = value.utf8.first, let last = value.utf8.last else { return true }
    if first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09 { return true }
    return value.utf8.contains { byte in
      byte == 0x2C || byte == 0x22 || byte == 0x0D || byte == 0x0A
    }
  }
}
