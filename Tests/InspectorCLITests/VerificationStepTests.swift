import Foundation
import SQLiteKit
import Testing

/// The verification steps of `backup` and `restore` are each proven by a file that only that
/// step catches: a case database whose damage is in one index only (its table reads fine, and
/// `foreign_key_check` passes), made with the stock `sqlite3` shell by pointing the index's
/// definition at another column (`PRAGMA writable_schema`), so `integrity_check` reports
/// "row 1 missing from index incidents_fruit".
///
/// SQLite: <https://sqlite.org/pragma.html#pragma_integrity_check>,
/// <https://sqlite.org/pragma.html#pragma_writable_schema>
@Suite struct VerificationStepTests {
  /// Damages the index `incidents_fruit` of the case database at `path` (no WAL left beside it).
  static func damageIndex(_ path: String, in cli: CLITestCase) throws {
    try RestoreSafetyTests.shell(
      path,
      """
      PRAGMA journal_mode = DELETE; PRAGMA writable_schema = ON;
      UPDATE sqlite_schema SET sql = 'CREATE INDEX incidents_fruit ON incidents (paw_size)'
      WHERE name = 'incidents_fruit';
      """, in: cli)
    let damaged = try Connection(path: path, mode: .readOnly)
    #expect(try damaged.integrityCheck() == ["row 1 missing from index incidents_fruit"])
    #expect(try damaged.scalar("SELECT count(*) FROM incidents") == .integer(1))
    #expect(try damaged.foreignKeyCheck().isEmpty)
  }

  /// SQLite's backup API copies pages verbatim, so the damaged index reaches the copy: only the
  /// copy's `integrity_check` stands between it and DEST.
  @Test func backupWhoseCopyFailsIntegrityCheckLeavesNoDestination() throws {
    let cli = try CLITestCase(seeded: true)
    try Self.damageIndex(cli.databasePath, in: cli)
    let destination = cli.directory.appendingPathComponent("backup.sqlite").path
    let before = try cli.directoryContents()
    expectFailure(
      cli.run("backup", destination), status: 65,
      messageContains: "the copy failed integrity_check: row 1 missing from index incidents_fruit")
    #expect(!cli.fileExists(destination))
    #expect(try cli.directoryContents() == before)
  }

  /// Only the source's `integrity_check` catches this before the database is replaced (the
  /// check after the copy would find it too late, with the damage already restored).
  @Test func restoreRefusesASourceWithADamagedIndexOnly() throws {
    let cli = try CLITestCase(seeded: true)
    let backup = RestoreSafetyTests.seedBackup(cli, "backup.sqlite")
    try Self.damageIndex(backup, in: cli)
    cli.succeed("suspect", "crow", "0.9")
    RestoreSafetyTests.expectRefusedRestore(
      cli, [backup, "--force"],
      naming: "\(backup) is damaged: row 1 missing from index incidents_fruit")
    #expect(try number(cli.suspect("crow")["suspicion_level"]) == 0.9)
    #expect(cli.succeed("check").contains("ok"))
  }
}
