import Foundation
import SQLiteKit
import Testing

/// A NUL in a colour or a time, written by another client with plain SQL: the schema's CHECKs
/// and the old domain rules read only up to the NUL and let it pass, while `import` refuses it.
/// `check` names each row and `export` refuses the file up front, writing nothing.
@Suite struct DomainTextNULTests {
  /// Another client (no PRAGMA: the CHECKs are on) stores `value` in `column` of the first
  /// row of `table`; `shown` is how messages print it.
  @Test(arguments: [
    ("fruits", "id", "color", "'red' || char(0) || 'x'", "red\\u{0}x"),
    ("sleep_schedules", "animal_id", "sleep_at", "'23:00' || char(0) || 'junk'", "23:00\\u{0}junk"),
    ("sleep_schedules", "animal_id", "wake_at", "'07:00' || char(0) || 'junk'", "07:00\\u{0}junk"),
    (
      "incidents", "id", "occurred_at", "'2026-01-02T10:00' || char(0) || 'junk'",
      "2026-01-02T10:00\\u{0}junk"
    ),
  ])
  func aNULInADomainValueIsNamedByCheckAndRefusedByExport(
    table: String, idColumn: String, column: String, value: String, shown: String
  ) throws {
    let cli = try CLITestCase(seeded: true)
    let writer = try Connection(path: cli.databasePath)
    // The seed case has no schedule: the first suspect gets the default one.
    try writer.execute("INSERT OR IGNORE INTO sleep_schedules (animal_id) VALUES (1)")
    let id = try #require(
      try writer.scalar("SELECT min(\(idColumn)) FROM \(table)")?.integerValue)
    try writer.execute("UPDATE \(table) SET \(column) = \(value) WHERE \(idColumn) = \(id)")
    // Stored whole, NUL and all, past the CHECK.
    #expect(
      try writer.scalar(
        "SELECT length(CAST(\(column) AS BLOB)) FROM \(table) WHERE \(idColumn) = \(id)")?
        .integerValue == Int64(shown.utf8.count - "\\u{0}".utf8.count + 1))
    let rows = cli.failedCheckRows()
    let prefix =
      "fault,domain,\(table),\(idColumn) \(id),\"\(column) '\(shown)' holds a NUL character"
    #expect(rows.contains { $0.hasPrefix(prefix) }, "\(rows)")
    let export = cli.run("export")
    #expect(export.status == 65)
    #expect(export.standardOutput.isEmpty)
    #expect(
      lines(export.standardError).first?.hasPrefix(
        "inspector: error: \(table) id \(id) holds \(column) ") == true,
      "\(export.standardError)")
    #expect(export.standardError.contains("holds a NUL") || export.standardError.contains("NUL"))
  }
}
