import CommandLineKit

/// A ``TextTable`` written as its rows arrive.
///
/// The column widths come from the headers and the first page of rows, the only rows known
/// when the first line must be written (docs/output-formats.md "Streaming"). A later text cell
/// wider than its column is cut to fit and ends in "…", so every line keeps the layout; a number
/// (a right-aligned column) is never cut, and one wider than its column pushes the rest of its
/// line to the right. A listing
/// that fits in its first page looks exactly as ``TextTable/render(headerStyle:cellStyle:)``
/// would draw it.
struct StreamingTable {
  // MARK: - Properties

  /// The columns with their headers and alignments.
  let table: TextTable
  /// Each column's width in terminal columns.
  let widths: [Int]
  /// What ends a cut cell: "…" (U+2026), one column wide.
  static let ellipsis = "…"
  /// Widths of the cells measured so far.
  private let widthCache = DisplayWidthCache()

  // MARK: - Init

  /// Fixes the widths from the headers and `firstPage`.
  ///
  /// - Parameters:
  ///   - columns: The columns, left to right.
  ///   - firstPage: The first rows; each at most one cell per column.
  init(columns: [TextTable.Column], firstPage: [[String]]) {
    table = TextTable(columns: columns)
    var widths = columns.map { displayWidth(of: TextTable.singleLine($0.header)) }
    for row in firstPage {
      for (index, cell) in row.enumerated() where index < widths.count {
        widths[index] = max(widths[index], displayWidth(of: TextTable.singleLine(cell)))
      }
    }
    self.widths = widths
  }

  // MARK: - Rendering

  /// The header line and the rule under it.
  ///
  /// - Parameter headerStyle: Applied to each header after padding (bold on a terminal).
  /// - Returns: Two lines without terminators.
  func headerLines(headerStyle: (String) -> String) -> [String] {
    let headers = table.columns.map { TextTable.singleLine($0.header) }
    let rule = widths.map { String(repeating: TextTable.ruleCharacter, count: $0) }
    return [
      table.renderLine(headers, widths: widths) { _, text in headerStyle(text) },
      TextTable.trimmingTrailingSpaces(rule.joined(separator: "  ")),
    ]
  }

  /// One body line: each cell on one line, cut to its column's width.
  ///
  /// - Parameters:
  ///   - row: At most one cell per column; missing trailing cells are empty.
  ///   - keepingWhole: Whether the cell of a left-aligned column must not be cut either.
  ///   - cellStyle: Applied to a cell's text (after cutting) given its column index.
  /// - Returns: The line without its terminator, with no trailing spaces.
  func line(
    _ row: [String], keepingWhole: (_ column: Int) -> Bool = { _ in false },
    cellStyle: (_ column: Int, _ text: String) -> String
  ) -> String {
    var output = UTF8Buffer()
    appendLine(row, to: &output, keepingWhole: keepingWhole, cellStyle: cellStyle)
    return String(output.text.dropLast())
  }

  /// Appends one body line and its "\n": each cell on one line, cut to its column's width, as
  /// ``TextTable/renderLine(_:widths:style:)`` draws it.
  ///
  /// - Parameters:
  ///   - row: At most one cell per column; missing trailing cells are empty.
  ///   - output: Where the line goes; it gets no trailing spaces.
  ///   - keepingWhole: Whether the cell of a left-aligned column must not be cut either.
  ///   - cellStyle: Applied to a cell's text (after cutting) given its column index.
  func appendLine(
    _ row: [String], to output: inout UTF8Buffer,
    keepingWhole: (_ column: Int) -> Bool = { _ in false },
    cellStyle: (_ column: Int, _ text: String) -> String
  ) {
    let start = output.count
    for (index, width) in widths.enumerated() {
      if index > 0 { output.append("  ") }
      guard index < row.count else { continue }
      var text = TextTable.singleLine(row[index])
      var textWidth = self.width(of: text)
      let rightAligned = table.columns[index].alignment == .right
      if !rightAligned && textWidth > width && !keepingWhole(index) {
        text = Self.cut(text, to: width)
        textWidth = displayWidth(of: text)
      }
      let padding = max(0, width - textWidth)
      if rightAligned { output.append(byte: UInt8(ascii: " "), count: padding) }
      if !text.isEmpty { output.append(cellStyle(index, text)) }
      if !rightAligned { output.append(byte: UInt8(ascii: " "), count: padding) }
    }
    output.trimTrailingSpaces(from: start)
    output.append(byte: UInt8(ascii: "\n"))
  }

  /// The display width of a cell: computed once for each text that needs grapheme breaking
  /// (the emoji of the suspect column repeat on every page), directly for the rest.
  private func width(of text: String) -> Int {
    widthCache.width(of: text)
  }

  /// `text` if it fits in `width` columns, else its longest prefix that fits with "…" after it.
  static func cut(_ text: String, to width: Int) -> String {
    if let textWidth = simpleWidth(of: text) {
      // One column per scalar, each its own character: cut by scalars.
      guard textWidth > width else { return text }
      return String(text.unicodeScalars.prefix(max(width - 1, 0))) + ellipsis
    }
    guard displayWidth(of: text) > width else { return text }
    var result = ""
    var used = 0
    for character in text {
      let characterWidth = displayWidth(of: character)
      if used + characterWidth > width - 1 { break }
      result.append(character)
      used += characterWidth
    }
    return result + ellipsis
  }
}
