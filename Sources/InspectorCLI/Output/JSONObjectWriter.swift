/// Writes one JSON object member by member straight into a ``UTF8Buffer``, laid out as
/// ``JSONValue/serialized(pretty:)`` lays out an object (the one place that layout is written).
///
/// ```swift
/// var object = JSONObjectWriter(pretty: true, indent: 1)
/// object.member("id", to: &output)
/// output.append(Int64(7))
/// object.finish(to: &output)
/// ```
struct JSONObjectWriter {
  // MARK: - Properties

  private let pretty: Bool
  private let indent: Int
  private var members = 0

  // MARK: - Init

  /// Starts an object `indent` levels deep in pretty text (0 for compact text).
  ///
  /// - Parameters:
  ///   - pretty: `false` for compact text, `true` for one member a line.
  ///   - indent: The object's own nesting level; its members are one level deeper.
  ///   - output: Where the opening brace goes.
  init(pretty: Bool, indent: Int, to output: inout UTF8Buffer) {
    self.pretty = pretty
    self.indent = indent
    output.append(byte: UInt8(ascii: "{"))
  }

  // MARK: - Writing

  /// Writes what comes before a member's value: the separator, the indentation and the quoted
  /// key with its colon. The caller then writes the value, `indent + 1` levels deep.
  mutating func member(_ key: String, to output: inout UTF8Buffer) {
    if pretty {
      output.append(members > 0 ? ",\n" : "\n")
      JSONValue.writeIndent(indent + 1, to: &output)
    } else if members > 0 {
      output.append(byte: UInt8(ascii: ","))
    }
    members += 1
    JSONValue.writeString(key, to: &output)
    output.append(pretty ? ": " : ":")
  }

  /// Closes the object: `{}` when it has no members.
  func finish(to output: inout UTF8Buffer) {
    if pretty && members > 0 {
      output.append(byte: UInt8(ascii: "\n"))
      JSONValue.writeIndent(indent, to: &output)
    }
    output.append(byte: UInt8(ascii: "}"))
  }
}
