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

  /// Overwrites the page-type byte of the root page of `table` in the case database at `path`
  /// with 0xFF, a page no b-tree can hold: every reader of that table fails, and so does
  /// `quick_check`, but SQLite's backup API copies the page like any other.
  static func damagePage(of table: String, _ path: String) throws {
    let root = try Connection(path: path, mode: .readOnly).scalar(
      "SELECT rootpage FROM sqlite_schema WHERE name = '\(table)'")?.integerValue
    let page = try #require(root)
    let pageSize = try #require(
      try Connection(path: path, mode: .readOnly).scalar("PRAGMA page_size")?.integerValue)
    let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    try file.seek(toOffset: UInt64((page - 1) * pageSize))
    try file.write(contentsOf: Data([0xFF]))
    try file.close()
    #expect(throws: SQLiteError.self) { try Connection(path: path, mode: .readOnly).quickCheck() }
  }

  /// SQLite's backup API copies pages verbatim, so a damaged page reaches the copy: the copy's
  /// `quick_check` (the default verification) stands between it and DEST.
  @Test func backupWhoseCopyFailsQuickCheckLeavesNoDestination() throws {
    let cli = try CLITestCase(seeded: true)
    try RestoreSafetyTests.shell(cli.databasePath, "PRAGMA journal_mode = DELETE;", in: cli)
    try Self.damagePage(of: "alibis", cli.databasePath)
    let destination = cli.directory.appendingPathComponent("backup.sqlite").path
    let before = try cli.directoryContents()
    expectFailure(
      cli.run("backup", destination), status: 65, messageContains: "the copy failed quick_check: ")
    #expect(!cli.fileExists(destination))
    #expect(try cli.directoryContents() == before)
  }

  /// A damaged index passes `quick_check` (which does not match indexes to their tables):
  /// `--verify full` runs `integrity_check`, which catches it.
  @Test func backupWithFullVerificationCatchesADamagedIndex() throws {
    let cli = try CLITestCase(seeded: true)
    try Self.damageIndex(cli.databasePath, in: cli)
    let destination = cli.directory.appendingPathComponent("backup.sqlite").path
    let before = try cli.directoryContents()
    expectFailure(
      cli.run("backup", destination, "--verify", "full"), status: 65,
      messageContains: "the copy failed integrity_check: row 1 missing from index incidents_fruit")
    #expect(!cli.fileExists(destination))
    #expect(try cli.directoryContents() == before)
    // Without a check the copy is written as it is, damage and all.
    cli.succeed("backup", destination, "--verify", "none")
    #expect(
      try Connection(path: destination, mode: .readOnly).integrityCheck() == [
        "row 1 missing from index incidents_fruit"
      ])
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

  /// A value another client stored against a CHECK constraint is the source's fault, not damage
  /// done by copying: the backup is written (verified for structure), and `check` of the copy
  /// names the row.
  @Test func aBackupCopiesAValueThatBreaksACheckConstraintAndCheckNamesIt() throws {
    let cli = try CLITestCase.seeded(
      writtenByAnotherClient: """
        PRAGMA ignore_check_constraints = ON;
        UPDATE animals SET paw_size = 'huge' WHERE id = 5;
        """)
    let destination = cli.directory.appendingPathComponent("backup.sqlite").path
    for verify in ["quick", "full"] {
      cli.succeed("backup", destination, "--verify", verify)
      let check = cli.run("check", "--db", destination, "--format", "csv")
      #expect(check.status == 65)
      #expect(
        check.standardOutput.contains(
          "fault,domain,animals,id 5,\"paw_size 'huge' is not small, medium or large\""),
        "\(check.standardOutput)")
    }
  }
}
