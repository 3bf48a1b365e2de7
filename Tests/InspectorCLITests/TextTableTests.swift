import CommandLineKit
import Testing

@testable import InspectorCLI

@Suite("Text table")
struct TextTableTests {
  private func seedTable(rénard: String = "Rénard") -> TextTable {
    var table = TextTable(columns: [
      .init("SUSPECT"), .init("SPECIES"), .init("LEVEL", alignment: .right),
    ])
    table.append(["🐦‍⬛ Catie", "Crow", "0.9"])
    table.append(["🕊️ Ding", "Dove", "0.25"])
    table.append([rénard, "Raccoon", "1"])
    return table
  }

  @Test(
    "seed suspects align by display width, in NFC and NFD",
    arguments: ["R\u{E9}nard", "Re\u{301}nard"])
  func seedSuspectsAlign(rénard: String) {
    let expected = """
      SUSPECT   SPECIES  LEVEL
      ────────  ───────  ─────
      🐦‍⬛ Catie  Crow       0.9
      🕊️ Ding   Dove      0.25
      \(rénard)    Raccoon      1
      """
    #expect(seedTable(rénard: rénard).render() == expected)
  }

  @Test("every rendered line has the same display width when the last column is right-aligned")
  func linesHaveEqualDisplayWidth() {
    let widths = seedTable().lines().map { displayWidth(of: $0) }
    #expect(widths == [24, 24, 24, 24, 24])
  }

  /// CJK and halfwidth katakana pad to the same column; lines never end in whitespace, even
  /// with empty or short last cells.
  @Test(arguments: [
    (
      ["NAME", "NOTE"], [["猫", "wide"], ["ｱ", "half"], ["ab", "ascii"]],
      [
        "NAME  NOTE",
        "────  ─────",
        "猫    wide",
        "ｱ     half",
        "ab    ascii",
      ]
    ),
    (
      ["NAME", "ALIBI"], [["Fabrizio", ""], ["Soloman"], ["Ding", "asleep"]],
      [
        "NAME      ALIBI",
        "────────  ──────",
        "Fabrizio",
        "Soloman",
        "Ding      asleep",
      ]
    ),
  ])
  func cellsPadToTheirColumnWithNoTrailingWhitespace(
    headers: [String], rows: [[String]], lines: [String]
  ) {
    var table = TextTable(headers: headers)
    for row in rows { table.append(row) }
    #expect(table.lines() == lines)
  }

  @Test("newlines become ↵ and tabs a space, so a multi-line alibi stays on one row")
  func multiLineCells() {
    var table = TextTable(headers: ["NAME", "ALIBI"])
    table.append(["Catie", "at the nest\nall night"])
    table.append(["Ding", "a\r\nb\tc"])
    #expect(
      table.render() == """
        NAME   ALIBI
        ─────  ─────────────────────
        Catie  at the nest↵all night
        Ding   a↵b c
        """)
  }

  @Test("escape and other control characters in data are replaced, not passed to the terminal")
  func controlCharactersReplaced() {
    var table = TextTable(headers: ["X"])
    table.append(["a\u{1B}[31mb"])
    #expect(table.lines()[2] == "a\u{FFFD}[31mb")
  }

  @Test("header styling adds escape codes without moving the columns")
  func headerStyleDoesNotChangeWidths() {
    let style = OutputStyle(usesColor: true)
    let lines = seedTable().lines(headerStyle: style.bold)
    #expect(
      lines[0]
        == "\u{1B}[1mSUSPECT\u{1B}[22m   \u{1B}[1mSPECIES\u{1B}[22m  \u{1B}[1mLEVEL\u{1B}[22m")
    #expect(lines[2] == "🐦‍⬛ Catie  Crow       0.9")
  }

  @Test("cell styling receives the row and column index")
  func cellStyle() {
    let lines = seedTable().lines(cellStyle: { row, column, text in
      row == 1 && column == 2 ? "<\(text)>" : text
    })
    #expect(lines[3] == "🕊️ Ding   Dove      <0.25>")
    #expect(lines[4] == "Rénard    Raccoon      1")
  }

  @Test("a table without rows still has its header and rule; without columns it is empty")
  func emptyTables() {
    #expect(TextTable(headers: ["ID", "NAME"]).render() == "ID  NAME\n──  ────")
    #expect(TextTable(columns: []).render() == "")
  }
}
