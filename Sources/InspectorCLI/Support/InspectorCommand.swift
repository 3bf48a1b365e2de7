/// One leaf command of `inspector`: its spec (name, abstract, arguments, options) and a `run`
/// that calls the case store and returns what to print on stdout.
///
/// each command is a small type; the output is returned,
/// not printed, so that an error leaves stdout empty (README "A short tour").
protocol InspectorCommand: Sendable {
  /// The command's spec; its `name` is the last word of its path.
  static var spec: CommandSpec { get }
  /// Runs the command.
  ///
  /// - Returns: The text for stdout, ending in a newline (or empty).
  /// - Throws: ``UsageError``, ``CommandFailure``, or a case-store error.
  static func run(_ context: CommandContext) throws -> String
}

/// Renders values in the chosen format.
enum Render {
  /// One record: a JSON object, one CSV row under a header, or the table text.
  static func record(
    _ context: CommandContext, json: [(String, JSONValue)], csvHeader: [String],
    csv: [String?], table: () -> String
  ) -> String {
    switch context.format {
    case .json: return JSONValue.object(json).serialized(pretty: true) + "\n"
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
    case .csv: return CSVWriter.document(header: csvHeader, rows: csv)
    case .table: return withNewline(table())
    }
  }

  /// `text` with exactly one trailing newline ("" stays "").
  static func withNewline(_ text: String) -> String {
    text.isEmpty || text.hasSuffix("\n") ? text : text + "\n"
  }
}
