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
  /// The row type's one JSON writer.
  private let json: JSONRecordWriter<Row>
  private let csvHeader: [String]
  /// Appends a row's CSV record.
  private let csv: (Row, inout UTF8Buffer) -> Void
  /// The table's layout, chosen from the first page (the ranking's clue columns depend on it).
  private let layout: ([Row]) -> TableLayout<Row>
  private var table: (StreamingTable, TableLayout<Row>)?
  private var rowsWritten = 0
  private var started = false
  /// The text of the page being written, kept between pages for its capacity.
  private var text = UTF8Buffer()

  // MARK: - Init

  /// Creates a writer for one listing.
  ///
  /// - Parameters:
  ///   - context: The command's context: its format, style and output.
  ///   - json: The row type's one JSON writer (json and ndjson).
  ///   - csvHeader: The CSV header's column names.
  ///   - csv: A row's CSV fields, in header order; `nil` is an empty field.
  ///   - layout: The table's layout given the first page (empty when there are no rows).
  convenience init(
    _ context: CommandContext, json: JSONRecordWriter<Row>, csvHeader: [String],
    csv: @escaping (Row) -> [String?], layout: @escaping ([Row]) -> TableLayout<Row>
  ) {
    self.init(
      context, json: json, csvHeader: csvHeader,
      writeCSV: { row, output in CSVWriter.appendRecord(csv(row), to: &output) }, layout: layout)
  }

  /// Creates a writer for one listing whose rows write their own CSV text, for rows that are
  /// cheaper to write directly than as an array of fields (`list`, `sql`).
  ///
  /// - Parameters:
  ///   - context: The command's context: its format, style and output.
  ///   - json: The row type's one JSON writer (json and ndjson).
  ///   - csvHeader: The CSV header's column names.
  ///   - writeCSV: Appends a row's CSV record, as ``CSVWriter/record(_:)-(_:[String?])`` would.
  ///   - layout: The table's layout given the first page (empty when there are no rows).
  init(
    _ context: CommandContext, json: JSONRecordWriter<Row>, csvHeader: [String],
    writeCSV: @escaping (Row, inout UTF8Buffer) -> Void,
    layout: @escaping ([Row]) -> TableLayout<Row>
  ) {
    self.context = context
    self.json = json
    self.csvHeader = csvHeader
    self.csv = writeCSV
    self.layout = layout
  }

  // MARK: - Writing

  /// Writes one page of rows.
  ///
  /// - Throws: ``OutputError`` when stdout refuses the text.
  func write(_ page: [Row]) throws(OutputError) {
    guard !page.isEmpty else { return }
    text.removeAll()
    if !started { start(firstPage: page) }
    switch context.format {
    case .json:
      for row in page {
        text.append(rowsWritten == 0 ? "\n  " : ",\n  ")
        json.write(row, to: &text, pretty: true, indent: 1)
        rowsWritten += 1
      }
    case .ndjson:
      for row in page {
        json.write(row, to: &text, pretty: false, indent: 0)
        text.append(byte: UInt8(ascii: "\n"))
        rowsWritten += 1
      }
    case .csv:
      for row in page {
        csv(row, &text)
        rowsWritten += 1
      }
    case .table:
      let (table, layout) = tableFor(page)
      for row in page {
        table.appendLine(
          layout.cells(row), to: &text, keepingWhole: { layout.keepsWhole(row, $0) }
        ) { layout.cellStyle(row, $0, $1) }
        rowsWritten += 1
      }
    }
    try context.output.write(text)
  }

  /// Ends the listing: closes the JSON array, or writes the header of an empty table or CSV.
  ///
  /// - Throws: ``OutputError`` when stdout refuses the text.
  func finish() throws(OutputError) {
    text.removeAll()
    if !started { start(firstPage: []) }
    if context.format == .json { text.append(rowsWritten == 0 ? "]\n" : "\n]\n") }
    try context.output.write(text)
  }

  // MARK: - Private helpers

  /// Appends what comes before the first row: `[`, the CSV header, or the table's header and
  /// rule.
  private func start(firstPage: [Row]) {
    started = true
    switch context.format {
    case .json: text.append(byte: UInt8(ascii: "["))
    case .ndjson: break
    case .csv: CSVWriter.appendRecord(csvHeader, to: &text)
    case .table:
      let (table, _) = tableFor(firstPage)
      for line in table.headerLines(headerStyle: context.style.bold) {
        text.append(line)
        text.append(byte: UInt8(ascii: "\n"))
      }
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
