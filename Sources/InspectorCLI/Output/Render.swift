/// Renders values in the chosen format.
enum Render {
  /// One record: a JSON object, one CSV row under a header, or the table text.
  static func record(
    _ context: CommandContext, json: [(String, JSONValue)], csvHeader: [String],
    csv: [String?], table: () -> String
  ) -> String {
    switch context.format {
    case .json: return JSONValue.object(json).serialized(pretty: true) + "\n"
    case .ndjson: return JSONValue.object(json).serialized() + "\n"
    case .csv: return CSVWriter.document(header: csvHeader, rows: [csv])
    case .table: return withNewline(table())
    }
  }

  /// A list: a JSON array of objects, CSV rows under a header, or the table text.
  static func list(
    _ context: CommandContext, json: [[(String, JSONValue)]], csvHeader: [String],
    csv: [[String?]], table: () -> String
  ) -> String {
    switch context.format {
    case .json: return JSONValue.array(json.map(JSONValue.object)).serialized(pretty: true) + "\n"
    case .ndjson: return json.map { JSONValue.object($0).serialized() + "\n" }.joined()
    case .csv: return CSVWriter.document(header: csvHeader, rows: csv)
    case .table: return withNewline(table())
    }
  }

  /// `text` with exactly one trailing newline ("" stays "").
  static func withNewline(_ text: String) -> String {
    text.isEmpty || text.hasSuffix("\n") ? text : text + "\n"
  }
}
