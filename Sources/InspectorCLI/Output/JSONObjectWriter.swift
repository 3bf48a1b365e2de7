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

  /// ``member(_:to:)`` for a key quoted once beforehand (keys written on every row).
  mutating func member(_ key: Key, to output: inout UTF8Buffer) {
    key.quoted.withUnsafeBufferPointer { member(quoted: $0, to: &output) }
  }

  /// ``member(_:to:)`` for a key's quoted bytes (see ``KeyList``).
  mutating func member(quoted key: UnsafeBufferPointer<UInt8>, to output: inout UTF8Buffer) {
    separate(to: &output)
    output.append(bytes: key)
    output.append(pretty ? ": " : ":")
  }

  // MARK: - Members with their values

  /// Writes a member whose value is a string.
  mutating func member(_ key: Key, _ value: String, to output: inout UTF8Buffer) {
    member(key, to: &output)
    JSONValue.writeString(value, to: &output)
  }

  /// Writes a member whose value is a string, or `null` for `nil`.
  mutating func member(_ key: Key, _ value: String?, to output: inout UTF8Buffer) {
    member(key, to: &output)
    if let value { JSONValue.writeString(value, to: &output) } else { output.append("null") }
  }

  /// Writes a member whose value is an integer, printed exactly.
  mutating func member(_ key: Key, _ value: Int64, to output: inout UTF8Buffer) {
    member(key, to: &output)
    output.append(value)
  }

  /// Writes a member whose value is an integer, or `null` for `nil`.
  mutating func member(_ key: Key, _ value: Int64?, to output: inout UTF8Buffer) {
    member(key, to: &output)
    if let value { output.append(value) } else { output.append("null") }
  }

  /// Writes a member whose value is an integer, printed exactly.
  mutating func member(_ key: Key, _ value: Int, to output: inout UTF8Buffer) {
    member(key, to: &output)
    output.append(value)
  }

  /// Writes a member whose value is a real number (``JSONValue/double(_:)``'s text; NaN and
  /// the infinities as `null`).
  mutating func member(_ key: Key, _ value: Double, to output: inout UTF8Buffer) {
    member(key, to: &output)
    JSONValue.writeNumber(value, to: &output)
  }

  /// Writes a member whose value is a real number, or `null` for `nil`.
  mutating func member(_ key: Key, _ value: Double?, to output: inout UTF8Buffer) {
    member(key, to: &output)
    if let value { JSONValue.writeNumber(value, to: &output) } else { output.append("null") }
  }

  /// Writes a member whose value is `true` or `false`.
  mutating func member(_ key: Key, _ value: Bool, to output: inout UTF8Buffer) {
    member(key, to: &output)
    output.append(value ? "true" : "false")
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

  /// A member's key as a quoted, escaped JSON string, made once.
  struct Key: ExpressibleByStringLiteral {
    /// The key's JSON string literal, quotes included.
    let quoted: [UInt8]

    /// Quotes `key`.
    init(_ key: String) {
      var output = UTF8Buffer()
      JSONValue.writeString(key, to: &output)
      quoted = output.bytes
    }

    /// Quotes the literal key.
    init(stringLiteral key: String) {
      self.init(key)
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
