/// The one JSON writer of a record type: it writes one record's members, in order, into an
/// object being written, and every shape the record is printed in goes through it
/// (docs/output-formats.md "json" and "ndjson"): a pretty document of its own (`show`), one
/// compact line (`--format ndjson`), an element of an array streamed page by page (`list`, by
/// ``ListingWriter``), and a value nested in another record (`backup`'s `faults`, `demo`'s
/// `ranking`). So the shapes cannot disagree on a key, its order or a value.
///
/// A presenter declares one writer per record type it prints:
///
/// ```swift
/// static let json = JSONRecordWriter<Fruit> { fruit, object, output in
///   object.member("id", fruit.id, to: &output)
///   object.member("name", fruit.name, to: &output)
/// }
/// ```
///
/// The members are written straight into a ``UTF8Buffer``, no ``JSONValue`` tree is built, so a
/// listing of a million rows writes each row's text and nothing more.
struct JSONRecordWriter<Record>: Sendable {
  // MARK: - Properties

  /// Writes a record's members into `object`, which knows its layout (pretty or compact) and
  /// depth; nested values go one level deeper than the object.
  typealias Members =
    @Sendable (
      _ record: Record, _ object: inout JSONObjectWriter, _ output: inout UTF8Buffer
    ) -> Void

  /// Writes `record`'s members (see ``Members``).
  let writeMembers: Members

  // MARK: - Init

  /// A writer from the function that writes one record's members.
  init(_ writeMembers: @escaping Members) {
    self.writeMembers = writeMembers
  }

  // MARK: - Writing

  /// Appends `record` as one object: pretty, `indent` levels deep, or compact (`indent` 0).
  func write(_ record: Record, to output: inout UTF8Buffer, pretty: Bool, indent: Int) {
    var object = JSONObjectWriter(pretty: pretty, indent: indent, to: &output)
    writeMembers(record, &object, &output)
    object.finish(to: &output)
  }

  /// Appends `records` as an array of objects `indent` levels deep: `[]` when empty; pretty, one
  /// object a line one level deeper; compact, `[{...},{...}]`.
  func writeArray(_ records: [Record], to output: inout UTF8Buffer, pretty: Bool, indent: Int) {
    guard !records.isEmpty else {
      output.append("[]")
      return
    }
    output.append(byte: UInt8(ascii: "["))
    for (index, record) in records.enumerated() {
      if pretty {
        output.append(index > 0 ? ",\n" : "\n")
        JSONValue.writeIndent(indent + 1, to: &output)
      } else if index > 0 {
        output.append(byte: UInt8(ascii: ","))
      }
      write(record, to: &output, pretty: pretty, indent: indent + 1)
    }
    if pretty {
      output.append(byte: UInt8(ascii: "\n"))
      JSONValue.writeIndent(indent, to: &output)
    }
    output.append(byte: UInt8(ascii: "]"))
  }

  /// `record` as a document of its own and its newline: pretty (`--format json`) or one
  /// compact line (`--format ndjson`).
  func document(_ record: Record, pretty: Bool) -> String {
    var output = UTF8Buffer()
    write(record, to: &output, pretty: pretty, indent: 0)
    output.append(byte: UInt8(ascii: "\n"))
    return output.text
  }

  /// `record` as compact JSON text without a newline (a JSON value inside a CSV field).
  func compactText(_ record: Record) -> String {
    var output = UTF8Buffer()
    write(record, to: &output, pretty: false, indent: 0)
    return output.text
  }
}
