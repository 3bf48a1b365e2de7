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
    let cells = widths.indices.map { index -> String in
      guard index < row.count else { return "" }
      let text = TextTable.singleLine(row[index])
      let whole = table.columns[index].alignment == .right || keepingWhole(index)
      return whole ? text : Self.cut(text, to: widths[index])
    }
    return table.renderLine(cells, widths: widths, style: cellStyle)
  }

  /// `text` if it fits in `width` columns, else its longest prefix that fits with "…" after it.
  static func cut(_ text: String, to width: Int) -> String {
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
