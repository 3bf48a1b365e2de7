import SQLiteKit
import Testing

@testable import CaseStore

/// `check` reads only the rows SQL's pre-filter hands over, so the filter must pass every value
/// that breaks a text rule: a value it missed would never be reported, and a backup of it would
/// be called restorable.
@Suite struct TextRuleCheckTests {
  /// Values near every rule's edge: each control character class, invisible characters alone
  /// and beside visible ones, text after a NUL, blank and white space, lengths at and past each
  /// limit, and ordinary text in several scripts.
  static let values: [String] = {
    var values = [
      "Catie", "Rénard", "🦊", "Σωκράτης", "東京", "Tab\there", "Line\nbreak", "Return\rhere",
      "", " ", "   ", "\u{3000}", "\u{A0}", "a\0b", "\0", "\0\u{1B}", " \0", "ok\0\u{200B}",
      "\u{200B}", "\u{2060}", "\u{FEFF}", "\u{3164}", "\u{2800}", "\u{AD}", "\u{115F}\u{1160}",
      "\u{FFA0}", "\u{180E}", "\u{FE0F}", "\u{301}", "\u{200B}x", "x\u{200B}", "\u{E0041}",
      "\u{202E}evil", "a\u{2066}b", "a\u{2069}", "a\u{7F}", "a\u{80}", "a\u{9F}", "a\u{A0}b",
      String(repeating: "a", count: 64), String(repeating: "a", count: 65),
      String(repeating: "é", count: 33), String(repeating: "🦊", count: 17),
      String(repeating: "a", count: 10_000), String(repeating: "a", count: 10_001),
      String(repeating: "ü", count: 10_001), String(repeating: "a", count: 100_001),
    ]
    for scalar in (0x01...0x1F).compactMap(Unicode.Scalar.init) {
      values += ["x\(scalar)y", "\(scalar)"]
    }
    return values
  }()

  @Test(arguments: [TextRules.Field.name, .freeText, .emoji])
  func everyValueBreakingARuleIsHandedOver(field: TextRules.Field) throws {
    let connection = try Connection(path: ":memory:")
    try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, value TEXT)")
    let insert = try connection.prepare("INSERT INTO t (id, value) VALUES (?, ?)")
    for (id, value) in Self.values.enumerated() {
      try insert.run([Int64(id), value])
    }
    let select = try connection.prepare(
      "SELECT id FROM t WHERE \(TextRuleCheck.candidateCondition(column: "value", field: field))")
    try select.bind(
      .text(TextRuleCheck.controlPattern(for: field)), forParameter: ":controls")
    var handedOver: Set<Int> = []
    while let row = try select.nextRow() { handedOver.insert(Int(try row.int64("id"))) }

    for (id, value) in Self.values.enumerated() where TextRules.problem(value, in: field) != nil {
      #expect(handedOver.contains(id), "\(field): \(TextRules.escaped(value)) not handed over")
    }
    // The filter is what makes the check cheap: ordinary text stays in SQL.
    var ordinary = field == .emoji ? ["🦊", "Rénard"] : ["Catie", "Rénard"]
    if field == .freeText { ordinary.append("Tab\there") }
    for value in ordinary {
      let id = try #require(Self.values.firstIndex(of: value))
      #expect(!handedOver.contains(id), "\(value) handed over")
    }
  }
}
