/// Writes a listing in the context's format page by page, as the case store reads it
/// (docs/output-formats.md "Streaming").
///
/// JSON is one array whose elements are written as they come, NDJSON one object a line, CSV
/// its header and then one record a row, and the table its header and rule from the first page
/// (see ``StreamingTable``). Only one page of rows is held at a time, so memory does not grow
/// with the number of rows. Call ``write(_:)`` for every page (possibly none), then
/// ``finish()``.
final class ListingWriter<Row> {
  // MARK: - Properties

  private let context: CommandContext
  private let json: (Row) -> [(String, JSONValue)]
  private let csvHeader: [String]
  private let csv: (Row) -> [String?]
  /// The table's layout, chosen from the first page (the ranking's clue columns depend on it).
  private let layout: ([Row]) -> TableLayout<Row>
  private var table: (StreamingTable, TableLayout<Row>)?
  private var rowsWritten = 0
  private var started = false

  // MARK: - Init

  /// Creates a writer for one listing.
  ///
  /// - Parameters:
  ///   - context: The command's context: its format, style and output.
  ///   - json: A row as the members of its JSON object (json and ndjson).
  ///   - csvHeader: The CSV header's column names.
  ///   - csv: A row's CSV fields, in header order; `nil` is an empty field.
  ///   - layout: The table's layout given the first page (empty when there are no rows).
  init(
    _ context: CommandContext, json: @escaping (Row) -> [(String, JSONValue)],
    csvHeader: [String], csv: @escaping (Row) -> [String?],
    layout: @escaping ([Row]) -> TableLayout<Row>
  ) {
    self.context = context
    self.json = json
    self.csvHeader = csvHeader
    self.csv = csv
    self.layout = layout
  }

  // MARK: - Writing

  /// Writes one page of rows.
  ///
  /// - Throws: ``OutputError`` when stdout refuses the text.
  func write(_ page: [Row]) throws(OutputError) {
    guard !page.isEmpty else { return }
    var text = started ? "" : start(firstPage: page)
    switch context.format {
    case .json:
      for row in page {
        text += rowsWritten == 0 ? "\n  " : ",\n  "
        text += JSONValue.object(json(row)).serialized(pretty: true, nestedLevels: 1)
        rowsWritten += 1
      }
    case .ndjson:
      for row in page {
        text += JSONValue.object(json(row)).serialized() + "\n"
        rowsWritten += 1
      }
    case .csv:
      for row in page {
        text += CSVWriter.record(csv(row))
        rowsWritten += 1
      }
    case .table:
      let (table, layout) = tableFor(page)
      for row in page {
        text +=
          table.line(layout.cells(row), keepingWhole: { layout.keepsWhole(row, $0) }) {
            layout.cellStyle(row, $0, $1)
          } + "\n"
        rowsWritten += 1
      }
    }
    try context.output.write(text)
  }

  /// Ends the listing: closes the JSON array, or writes the header of an empty table or CSV.
  ///
  /// - Throws: ``OutputError`` when stdout refuses the text.
  func finish() throws(OutputError) {
    var text = started ? "" : start(firstPage: [])
    if context.format == .json { text += rowsWritten == 0 ? "]\n" : "\n]\n" }
    try context.output.write(text)
  }

  // MARK: - Private helpers

  /// What comes before the first row: `[`, the CSV header, or the table's header and rule.
  private func start(firstPage: [Row]) -> String {
    started = true
    switch context.format {
    case .json: return "["
    case .ndjson: return ""
    case .csv: return CSVWriter.record(csvHeader)
    case .table:
      let (table, _) = tableFor(firstPage)
      return table.headerLines(headerStyle: context.style.bold).map { $0 + "\n" }.joined()
    }
  }

  /// The streaming table, laid out from `firstPage` the first time it is asked for.
  private func tableFor(_ firstPage: [Row]) -> (StreamingTable, TableLayout<Row>) {
    if let table { return table }
    let layout = layout(firstPage)
    let made = (
      StreamingTable(columns: layout.columns, firstPage: firstPage.map(layout.cells)), layout
    )
    table = made
    return made
  }
}
