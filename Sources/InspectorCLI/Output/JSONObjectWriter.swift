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

  /// Whether the object is pretty (one member a line) or compact.
  let pretty: Bool
  /// The object's own nesting level in pretty text; its members' values are one level deeper.
  let indent: Int
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
    separate(to: &output)
    JSONValue.writeString(key, to: &output)
    output.append(pretty ? ": " : ":")
  }

  /// ``member(_:to:)`` for a key written in the source (every record writer's keys): its
  /// bytes go out as they are, quoted, with nothing to escape and nothing allocated per row.
  mutating func member(_ key: Key, to output: inout UTF8Buffer) {
    separate(to: &output)
    output.append(byte: UInt8(ascii: "\""))
    output.append(key.text)
    output.append(byte: UInt8(ascii: "\""))
    output.append(pretty ? ": " : ":")
  }

  /// ``member(_:to:)`` for a key's quoted bytes (see ``KeyList``).
  mutating func member(quoted key: UnsafeBufferPointer<UInt8>, to output: inout UTF8Buffer) {
    separate(to: &output)
    output.append(bytes: key)
    output.append(pretty ? ": " : ":")
  }

  // MARK: - Members with their values

  /// Writes a member whose value is a string, a number, a Boolean, or `null` for `nil`.
  mutating func member(_ key: Key, _ value: some JSONScalar, to output: inout UTF8Buffer) {
    member(key, to: &output)
    value.writeJSON(to: &output)
  }

  /// Writes a member whose value is an array of strings, on one line (`null` for each `nil`).
  mutating func member(_ key: Key, strings: [String?], to output: inout UTF8Buffer) {
    member(key, to: &output)
    JSONValue.writeStrings(strings, pretty: pretty, to: &output)
  }

  /// Writes a member whose value is one record's object (written by the record type's one
  /// writer), or `null` for `nil`.
  mutating func member<Record>(
    _ key: Key, _ record: Record?, _ writer: JSONRecordWriter<Record>,
    to output: inout UTF8Buffer
  ) {
    member(key, to: &output)
    guard let record else {
      output.append("null")
      return
    }
    writer.write(record, to: &output, pretty: pretty, indent: indent + 1)
  }

  /// Writes a member whose value is an array of records' objects, laid out as
  /// ``JSONValue/serialized(pretty:)`` lays out an array of objects: `[]` when empty, else one
  /// object a line in pretty text.
  mutating func member<Record>(
    _ key: Key, _ records: [Record], _ writer: JSONRecordWriter<Record>,
    to output: inout UTF8Buffer
  ) {
    member(key, to: &output)
    writer.writeArray(records, to: &output, pretty: pretty, indent: indent + 1)
  }

  // MARK: - Private helpers

  /// What comes before a member's key: a comma after the first member and, pretty, a new line
  /// indented one level deeper than the object.
  private mutating func separate(to output: inout UTF8Buffer) {
    if pretty {
      output.append(members > 0 ? ",\n" : "\n")
      JSONValue.writeIndent(indent + 1, to: &output)
    } else if members > 0 {
      output.append(byte: UInt8(ascii: ","))
    }
    members += 1
  }

  /// Closes the object: `{}` when it has no members.
  func finish(to output: inout UTF8Buffer) {
    if pretty && members > 0 {
      output.append(byte: UInt8(ascii: "\n"))
      JSONValue.writeIndent(indent, to: &output)
    }
    output.append(byte: UInt8(ascii: "}"))
  }

  /// A member's key written in the source, such as `"paw_size"`: printable ASCII with no `"`
  /// or `\\`, so it is its own JSON text (checked in debug builds).
  struct Key: ExpressibleByStringLiteral {
    /// The key's text, unquoted.
    let text: StaticString

    /// The literal key.
    init(stringLiteral text: StaticString) {
      assert(
        UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount).allSatisfy {
          $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
        }, "a JSON key that needs escaping: \(text)")
      self.text = text
    }
  }

  /// Keys quoted once, all in one array: writing a row's members then retains no key
  /// (`sql`, whose keys are its result's column names).
  struct KeyList {
    /// Every key's JSON string literal, one after the other.
    private let quoted: [UInt8]
    /// Where each key lies in ``quoted``.
    private let ranges: [Range<Int>]

    /// The number of keys.
    var count: Int { ranges.count }

    /// Quotes `keys`.
    init(_ keys: [String]) {
      var output = UTF8Buffer()
      var ranges: [Range<Int>] = []
      for key in keys {
        let start = output.count
        JSONValue.writeString(key, to: &output)
        ranges.append(start..<output.count)
      }
      quoted = output.bytes
      self.ranges = ranges
    }

    /// Calls `body` with a function that gives key `index`'s quoted bytes, valid inside `body`.
    func withKeys<Result>(
      _ body: ((_ index: Int) -> UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
      quoted.withUnsafeBufferPointer { all in
        ranges.withUnsafeBufferPointer { ranges in
          body { UnsafeBufferPointer(rebasing: all[ranges[$0]]) }
        }
      }
    }
  }
}

/// A value a JSON member holds as it is, with the same text in CSV: a string, an integer, a
/// real number, a Boolean, or `nil` (`null` in JSON, an empty field in CSV).
protocol JSONScalar {
  /// Appends the value's JSON text (``JSONValue/serialized(pretty:)``'s).
  func writeJSON(to output: inout UTF8Buffer)
  /// The value's CSV field: the JSON text unquoted, `nil` for `null`.
  var csvField: String? { get }
}

extension String: JSONScalar {
  func writeJSON(to output: inout UTF8Buffer) { JSONValue.writeString(self, to: &output) }
  var csvField: String? { self }
}

extension Int64: JSONScalar {
  func writeJSON(to output: inout UTF8Buffer) { output.append(self) }
  var csvField: String? { "\(self)" }
}

extension Int: JSONScalar {
  func writeJSON(to output: inout UTF8Buffer) { output.append(self) }
  var csvField: String? { "\(self)" }
}

extension Double: JSONScalar {
  /// The shortest text that reads back the same; NaN and the infinities as `null`.
  func writeJSON(to output: inout UTF8Buffer) { JSONValue.writeNumber(self, to: &output) }
  var csvField: String? { "\(self)" }
}

extension Bool: JSONScalar {
  func writeJSON(to output: inout UTF8Buffer) { output.append(self ? "true" : "false") }
  var csvField: String? { "\(self)" }
}

extension Optional: JSONScalar where Wrapped: JSONScalar {
  func writeJSON(to output: inout UTF8Buffer) {
    if let self { self.writeJSON(to: &output) } else { output.append("null") }
  }
  var csvField: String? { self?.csvField }
}
