import SQLiteKit
import Testing

@testable import CaseStore

/// `check`'s shortcuts let SQL pass the rows it can vouch for, so that a million-row case is
/// checked in about the time of SQLite's own `integrity_check`. Each shortcut must pass only
/// rows the full rule also passes: a row wrongly passed would never be reported.
@Suite struct CheckShortcutTests {
  /// The blank-name rule's first-character shortcut selects exactly the rows `trim()` alone
  /// selects, over text near every edge (white space of several kinds, NUL, controls).
  @Test func theBlankShortcutSelectsWhatTrimSelects() throws {
    let connection = try Connection(path: ":memory:")
    try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, value)")
    let insert = try connection.prepare("INSERT INTO t (id, value) VALUES (?, ?)")
    let values: [SQLiteValue] =
      TextRuleCheckTests.values.map { .text($0) }
      + [.null, .integer(5), .real(0.5), .blob([0x20]), .text("!"), .text("~ "), .text("\u{A0}x")]
    for (id, value) in values.enumerated() { try insert.run([Int64(id), value]) }
    func ids(_ condition: String) throws -> [Int64] {
      let rows = try connection.prepare("SELECT id FROM t WHERE \(condition) ORDER BY id")
      var ids: [Int64] = []
      while try rows.step() { ids.append(rows.int64(at: 0)) }
      return ids
    }
    let shortcut = try ids(InvariantCheck.blank("value"))
    #expect(shortcut == (try ids("trim(value, \(InvariantCheck.whiteSpace)) = ''")))
    // Blank values are among them: the empty text, spaces, no-break and ideographic spaces.
    for blank in ["", " ", "   ", "\u{3000}", "\u{A0}"] {
      let id = try #require(TextRuleCheckTests.values.firstIndex(of: blank))
      #expect(shortcut.contains(Int64(id)), "\(TextRules.escaped(blank))")
    }
  }

  /// A folded key that SQL finds right (ASCII text, key `lower()` of it) is the key
  /// inspector's folding gives; keys of text beyond ASCII, with a NUL, or of another type are
  /// left to the Swift comparison.
  @Test func theASCIIKeyShortcutPassesOnlyRightKeys() throws {
    let connection = try Connection(path: ":memory:")
    try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, value TEXT, key)")
    let insert = try connection.prepare("INSERT INTO t (id, value, key) VALUES (?, ?, ?)")
    var id: Int64 = 0
    var expected: [Int64: String] = [:]
    let texts = TextRuleCheckTests.values + ["ABC", "Mixed Case", "İstanbul", "STRASSE", "Straße"]
    for text in texts {
      // The key inspector folds, the key SQL folds, and keys that are wrong.
      for key: SQLiteValue in [
        .text(NameKey.caseKey(text)), .text(text.lowercased()), .text(text), .integer(1), .null,
      ] {
        id += 1
        try insert.run([id, text, key])
        expected[id] = text
      }
    }
    let rows = try connection.prepare(
      "SELECT id, key FROM t WHERE \(InvariantCheck.asciiKeyHolds("value", "key"))")
    var passed = 0
    while try rows.step() {
      let text = try #require(expected[rows.int64(at: 0)])
      let key = rows.text(at: 1)
      #expect(Array(key.utf8) == Array(NameKey.caseKey(text).utf8), "\(text)")
      #expect(Array(key.utf8) == Array(NameKey.sortKey(text).utf8), "\(text)")
      passed += 1
    }
    // Ordinary ASCII rows are passed (the shortcut is used at all).
    #expect(passed >= 5)
  }

  /// On a sound file the history check's one pass vouches for every table, so the two passes
  /// that name rows are not run; a row written around the triggers makes it send its table on.
  @Test func theHistoryShortcutVouchesForASoundFileOnly() throws {
    let database = try seededDatabase()
    try database.write(nil) { try $0.suspects.setAlibi(id: 1, "Swimming.") }
    for table in RecordedTable.all {
      #expect(try HistoryCheck.agrees(database.connection, table), "\(table.name)")
    }
    let connection = database.connection
    let alibis = try #require(RecordedTable.named("alibis"))
    let animals = try #require(RecordedTable.named("animals"))
    let levels = try #require(RecordedTable.named("suspicion_levels"))
    try connection.execute("DROP TRIGGER history_alibis_after_update")
    try connection.execute("UPDATE alibis SET statement = 'Diving.' WHERE animal_id = 1")
    #expect(try !HistoryCheck.agrees(connection, alibis))
    #expect(try HistoryCheck.agrees(connection, animals))
    // A change the history holds for a row the table lacks.
    try connection.execute(
      """
      INSERT INTO history_changes (table_id, key1, key2, operation, v1)
      VALUES (6, 999, NULL, 1, 0.5)
      """)
    #expect(try !HistoryCheck.agrees(connection, levels))
    // A second key on a one-key table.
    try connection.execute(
      """
      INSERT INTO history_changes (table_id, key1, key2, operation, v1, v2, v3)
      VALUES (2, 1, 7, 1, 'x', 'y', 'small')
      """)
    #expect(try !HistoryCheck.agrees(connection, animals))
    let findings = try HistoryCheck.findings(connection)
    #expect(findings.contains { $0.table == "alibis" && $0.row == "animal_id 1" })
    #expect(findings.contains { $0.table == "suspicion_levels" && $0.row == "animal_id 999" })
  }
}
