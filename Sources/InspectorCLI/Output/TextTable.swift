import CommandLineKit

/// A plain-text table for people: a header row, a rule, and rows aligned by display width.
///
/// The `table` output format (docs/output-formats.md "table"). Columns are separated by two
/// spaces and padded by ``displayWidth(of:)-(String)``, never `String.count`, so
/// emoji, accented names and CJK line up. Lines never end in whitespace. Cells
/// are shown on one line: every newline (LF, CR, CRLF, U+2028…) becomes "↵",
/// a tab becomes one space, and other control characters and bidirectional overrides become U+FFFD "�", so
/// data cannot move the cursor or inject escape sequences.
///
/// ```swift
/// var table = TextTable(columns: [.init("NAME"), .init("LEVEL", alignment: .right)])
/// table.append(["🐦‍⬛ Catie", "0.90"])
/// print(table.render())
/// // NAME      LEVEL
/// // ────────  ─────
/// // 🐦‍⬛ Catie   0.90
/// ```
public struct TextTable: Sendable {
  /// How a column places text that is narrower than the column.
  public enum Alignment: Sendable, Equatable {
    /// Text starts at the column's left edge (names, labels).
    case left
    /// Text ends at the column's right edge (numbers).
    case right
  }

  /// One column: its header text and its alignment.
  ///
  /// The header follows the column's alignment too.
  public struct Column: Sendable, Equatable {
    /// The header shown above the rule, usually upper case ("NAME").
    public var header: String
    /// Where narrower cells (and the header) sit within the column.
    public var alignment: Alignment

    /// Creates a column.
    ///
    /// - Parameters:
    ///   - header: The header text; sanitised like a cell.
    ///   - alignment: `.left` (the default) or `.right`.
    public init(_ header: String, alignment: Alignment = .left) {
      self.header = header
      self.alignment = alignment
    }
  }

  // MARK: - Properties

  /// The columns, left to right.
  public var columns: [Column]

  /// The body rows; each holds one cell per column.
  ///
  /// A row shorter than ``columns`` is completed with empty cells; a longer row
  /// is a programmer error (``append(_:)`` traps on it, rendering ignores the
  /// extra cells).
  public var rows: [[String]]

  /// The character repeated to draw the rule under the header: "─" (U+2500,
  /// one column wide in Western-locale terminals).
  public static let ruleCharacter: Character = "─"

  /// What a newline inside a cell is shown as: "↵" (U+21B5).
  public static let newlineReplacement: Character = "↵"

  // MARK: - Init

  /// Creates a table with the given columns and, optionally, rows.
  ///
  /// - Parameters:
  ///   - columns: The columns, left to right.
  ///   - rows: Body rows, one cell per column.
  public init(columns: [Column], rows: [[String]] = []) {
    self.columns = columns
    self.rows = rows
  }

  /// Creates a table from header texts, all columns left-aligned unless
  /// `rightAligned` names their indices.
  ///
  /// - Parameters:
  ///   - headers: Header texts, left to right.
  ///   - rightAligned: Indices (0-based) of the columns to right-align.
  public init(headers: [String], rightAligned: Set<Int> = []) {
    self.columns = headers.enumerated().map { index, header in
      Column(header, alignment: rightAligned.contains(index) ? .right : .left)
    }
    self.rows = []
  }

  // MARK: - Public API

  /// Appends one body row.
  ///
  /// - Parameter row: At most one cell per column; missing trailing cells are empty.
  /// - Precondition: `row.count <= columns.count`.
  public mutating func append(_ row: [String]) {
    precondition(row.count <= columns.count, "TextTable row has more cells than columns")
    rows.append(row)
  }

  /// Renders the table as lines: the header, the rule, then one line per row.
  ///
  /// Each column is as wide as its widest cell or header (display width). The
  /// rule is ``ruleCharacter`` repeated to each column's width. Trailing spaces
  /// are removed from every line. A table with no columns renders no lines; a
  /// table with no rows renders the header and the rule.
  ///
  /// - Parameters:
  ///   - headerStyle: Applied to each header text after padding is computed, so
  ///     it may add ANSI codes (``OutputStyle/bold(_:)``) without moving columns.
  ///   - cellStyle: Applied to each body cell's text, given its row and column
  ///     index (0-based), after padding is computed.
  /// - Returns: The lines, without line terminators.
  public func lines(
    headerStyle: (String) -> String = { $0 },
    cellStyle: (_ row: Int, _ column: Int, _ text: String) -> String = { $2 }
  ) -> [String] {
    guard !columns.isEmpty else { return [] }
    // A whole table is a streamed one whose first page holds every row: every cell fits.
    let table = StreamingTable(columns: columns, firstPage: rows)
    var result = table.headerLines(headerStyle: headerStyle)
    result.reserveCapacity(rows.count + 2)
    for (rowIndex, row) in rows.enumerated() {
      result.append(table.line(row) { cellStyle(rowIndex, $0, $1) })
    }
    return result
  }

  /// Renders the table as one string: ``lines(headerStyle:cellStyle:)`` joined
  /// by "\n", with no newline after the last line (so `print(_:)` adds it).
  ///
  /// - Parameters:
  ///   - headerStyle: Styling for header texts; see ``lines(headerStyle:cellStyle:)``.
  ///   - cellStyle: Styling for body cells; see ``lines(headerStyle:cellStyle:)``.
  /// - Returns: The rendered table, or "" when there are no columns.
  public func render(
    headerStyle: (String) -> String = { $0 },
    cellStyle: (_ row: Int, _ column: Int, _ text: String) -> String = { $2 }
  ) -> String {
    lines(headerStyle: headerStyle, cellStyle: cellStyle).joined(separator: "\n")
  }

  // MARK: - Private helpers

  func renderLine(
    _ cells: [String], widths: [Int], style: (_ column: Int, _ text: String) -> String
  ) -> String {
    var line = ""
    for (index, cell) in cells.enumerated() {
      if index > 0 { line += "  " }
      let padding = String(
        repeating: " ", count: max(0, widths[index] - displayWidth(of: cell)))
      let styled = cell.isEmpty ? cell : style(index, cell)
      switch columns[index].alignment {
      case .left: line += styled + padding
      case .right: line += padding + styled
      }
    }
    return Self.trimmingTrailingSpaces(line)
  }

  /// Makes a cell printable on one line (see the type's documentation).
  static func singleLine(_ text: String) -> String {
    guard needsSingleLineWork(text) else { return text }
    var result = ""
    for character in text {
      if character.isNewline {
        result.append(newlineReplacement)
      } else if character == "\t" {
        result.append(" ")
      } else if character.unicodeScalars.contains(where: {
        $0.properties.generalCategory == .control || TerminalText.isBidiControl($0)
      }) {
        result.append("\u{FFFD}")
      } else {
        result.append(character)
      }
    }
    return result
  }

  /// Whether `text` holds a scalar that ``singleLine(_:)`` replaces: below U+0020, U+007F to
  /// U+009F, U+2028, U+2029 or a bidirectional control. Read as UTF-8 bytes: U+0080 to U+009F
  /// are C2 80 to C2 9F; U+2028, U+2029 and U+202A to U+202E are E2 80 A8 to E2 80 AE; U+2066
  /// to U+2069 are E2 81 A6 to E2 81 A9 (C2 and E2 only ever start a character).
  private static func needsSingleLineWork(_ text: String) -> Bool {
    var previous: UInt8 = 0
    var beforePrevious: UInt8 = 0
    for byte in text.utf8 {
      if byte < 0x20 || byte == 0x7F { return true }
      if previous == 0xC2 && (0x80...0x9F).contains(byte) { return true }
      if beforePrevious == 0xE2 && previous == 0x80 && (0xA8...0xAE).contains(byte) {
        return true
      }
      if beforePrevious == 0xE2 && previous == 0x81 && (0xA6...0xA9).contains(byte) {
        return true
      }
      beforePrevious = previous
      previous = byte
    }
    return false
  }

  static func trimmingTrailingSpaces(_ line: String) -> String {
    var end = line.endIndex
    while end > line.startIndex, line[line.index(before: end)] == " " {
      end = line.index(before: end)
    }
    return String(line[..<end])
  }
}
