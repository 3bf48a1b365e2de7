/// How the rows of a table look: the columns, a row's cells, and the style of each cell.
///
/// One layout serves a table drawn whole (``render(_:headerStyle:)``, for `demo`) and a table
/// streamed by ``ListingWriter``, so the two cannot disagree.
struct TableLayout<Row> {
  /// The columns, left to right.
  var columns: [TextTable.Column]
  /// A row's cells, one per column.
  var cells: (Row) -> [String]
  /// Applied to a cell's text given its row and column index (colour); none by default.
  var cellStyle: (Row, Int, String) -> String = { $2 }
  /// Whether a streamed table must show a cell whole even past its column's width (a number
  /// in a left-aligned column, `NULL`); cells of right-aligned columns always are.
  var keepsWhole: (Row, Int) -> Bool = { _, _ in false }

  /// The whole table as one string, without a final newline.
  ///
  /// - Parameters:
  ///   - rows: Every row.
  ///   - headerStyle: Applied to each header after padding (bold on a terminal).
  /// - Returns: The header, the rule and one line per row, joined by "\n".
  func render(_ rows: [Row], headerStyle: (String) -> String) -> String {
    let table = TextTable(columns: columns, rows: rows.map(cells))
    return table.render(headerStyle: headerStyle) { row, column, text in
      cellStyle(rows[row], column, text)
    }
  }
}
