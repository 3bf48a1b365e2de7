/// Renders the text a command returns (docs/design.md "Output"): one record or a short list,
/// each in the context's format, the JSON through the record type's one ``JSONRecordWriter``.
enum Render {
  /// One record: a pretty JSON object, one compact NDJSON line, one CSV row under a header, or
  /// the table text.
  static func record<Record>(
    _ record: Record, _ context: CommandContext, json: JSONRecordWriter<Record>,
    csvHeader: [String], csv: [String?], table: () -> String
  ) -> String {
    switch context.format {
    case .json: return json.document(record, pretty: true)
    case .ndjson: return json.document(record, pretty: false)
    case .csv: return CSVWriter.document(header: csvHeader, rows: [csv])
    case .table: return withNewline(table())
    }
  }

  /// A flat record (a command's report whose members are all scalars): the same keys and
  /// values as a JSON object, an NDJSON line, and a CSV header with one row; the table text.
  static func fields(
    _ fields: [(key: String, value: any JSONScalar)], _ context: CommandContext,
    table: () -> String
  ) -> String {
    record(
      fields, context, json: flatJSON, csvHeader: fields.map(\.key),
      csv: fields.map(\.value.csvField), table: table)
  }

  /// The one JSON writer of a flat record: its members in order.
  static let flatJSON = JSONRecordWriter<[(key: String, value: any JSONScalar)]> {
    fields, object, output in
    for field in fields {
      object.member(field.key, to: &output)
      field.value.writeJSON(to: &output)
    }
  }

  /// A short list (the migrations, an import's counts): a pretty JSON array of objects, one
  /// NDJSON line per record, CSV rows under a header, or the table text.
  static func list<Record>(
    _ records: [Record], _ context: CommandContext, json: JSONRecordWriter<Record>,
    csvHeader: [String], csv: (Record) -> [String?], table: () -> String
  ) -> String {
    switch context.format {
    case .json:
      var output = UTF8Buffer()
      json.writeArray(records, to: &output, pretty: true, indent: 0)
      output.append(byte: UInt8(ascii: "\n"))
      return output.text
    case .ndjson: return records.map { json.document($0, pretty: false) }.joined()
    case .csv: return CSVWriter.document(header: csvHeader, rows: records.map(csv))
    case .table: return withNewline(table())
    }
  }

  /// `text` with exactly one trailing newline ("" stays "").
  static func withNewline(_ text: String) -> String {
    text.isEmpty || text.hasSuffix("\n") ? text : text + "\n"
  }
}
