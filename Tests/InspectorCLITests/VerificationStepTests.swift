import CaseStore
import Foundation
import SQLiteKit
import Testing

/// The verification steps of `backup` and `restore` are each proven by a file that only that
/// step catches: a case database whose damage is in one index only (its table reads fine, and
/// `foreign_key_check` passes), made with the stock `sqlite3` shell by pointing the index's
/// definition at another column (`PRAGMA writable_schema`), so `integrity_check` reports
/// "row 1 missing from index incidents_fruit" (for `backup`, whose copy no schema comparison
/// sees before the rename); for `restore`, one key changed inside an index page with its schema
/// intact, and a foreign `application_id` on an otherwise perfect case file.
///
/// SQLite: <https://sqlite.org/pragma.html#pragma_integrity_check>,
/// <https://sqlite.org/pragma.html#pragma_writable_schema>
@Suite(.tags(.slow, .fileOperations), .skippedInFastSet) struct VerificationStepTests {
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
  /// with 0xFF, a page no b-tree can hold: every reader of that table fails, and `quick_check`
  /// names the page and then stops, but SQLite's backup API copies the page like any other.
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
    #expect(
      try Connection(path: path, mode: .readOnly).quickCheck() == [
        "*** in database main ***\nPage \(page): btreeInitPage() returns error code 11",
        "quick_check stopped: database disk image is malformed",
      ])
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

  /// A value another client stored against a CHECK constraint is the source's fault, not damage
  /// done by copying: the copy is written and kept (the newest copy there is), but `backup`
  /// says at once, exit 65, that it will not restore as it is, with either check, and `check`
  /// of the copy names the row.
  @Test func aBackupCopiesAValueThatBreaksACheckConstraintAndSaysItWillNotRestore() throws {
    let cli = try CLITestCase.seeded(
      writtenByAnotherClient: """
        PRAGMA ignore_check_constraints = ON;
        UPDATE animals SET paw_size = 'huge' WHERE id = 5;
        """)
    let destination = cli.directory.appendingPathComponent("backup.sqlite").path
    for verify in ["quick", "full"] {
      let backup = cli.run("backup", destination, "--verify", verify)
      #expect(backup.status == 65)
      #expect(
        backup.standardError.hasPrefix(
          "inspector: error: \(destination) will not restore as it is: 2 fault(s):"
            + " CHECK constraint failed in animals;"),
        "\(backup.standardError)")
      let check = cli.run("check", "--db", destination, "--format", "csv")
      #expect(check.status == 65)
      #expect(
        check.standardOutput.contains(
          "fault,domain,animals,id 5,\"paw_size 'huge' is not small, medium or large\""),
        "\(check.standardOutput)")
    }
    // --verify none checks nothing, so it says nothing either.
    cli.succeed("backup", destination, "--verify", "none")
  }

  // MARK: - Fixtures only one step catches

  /// Changes one key inside the root page of the index `animals_paw_size` ('medium' to
  /// 'mediun') in the file at `path` (no WAL beside it): the page header, the b-tree and the
  /// schema text stay intact, so `quick_check` and every other check pass, and only
  /// `integrity_check`, which matches each index to its table, finds the damage.
  static func damageIndexKeepingItsSchema(_ path: String) throws {
    let reader = try Connection(path: path, mode: .readOnly)
    let root = try #require(
      try reader.scalar(
        "SELECT rootpage FROM sqlite_schema WHERE name = 'animals_paw_size'")?.integerValue)
    let pageSize = try #require(try reader.scalar("PRAGMA page_size")?.integerValue)
    let sql = try reader.scalar("SELECT sql FROM sqlite_schema WHERE name = 'animals_paw_size'")
    var bytes = try #require(OperationsFixture.bytes(path))
    let start = Int((root - 1) * pageSize)
    let page = bytes[start..<start + Int(pageSize)]
    let key = try #require(page.firstRange(of: Data("medium".utf8)))
    bytes[key.upperBound - 1] = UInt8(ascii: "n")
    try bytes.write(to: URL(fileURLWithPath: path))

    let damaged = try Connection(path: path, mode: .readOnly)
    #expect(try damaged.integrityCheck() == ["row 10 missing from index animals_paw_size"])
    #expect(try damaged.quickCheck() == ["ok"])
    #expect(
      try damaged.scalar("SELECT sql FROM sqlite_schema WHERE name = 'animals_paw_size'") == sql)
    // Every other step of a restore passes it.
    let others = try CaseFile.restorability(at: path, structure: .none)
    #expect(others.faults == [])
    #expect(others.schemaVersion == OperationsFixture.latest)
  }

  /// Only the source's `integrity_check` stands between this file and the database.
  @Test func restoreRefusesAnIndexDamagedWithItsSchemaIntact() throws {
    let cli = try CLITestCase(seeded: true)
    let backup = RestoreSafetyTests.seedBackup(cli, "backup.sqlite")
    try Self.damageIndexKeepingItsSchema(backup)
    cli.succeed("suspect", "crow", "0.9")
    RestoreSafetyTests.expectRefusedRestore(
      cli, [backup, "--force"],
      naming: "\(backup) is damaged: row 10 missing from index animals_paw_size")
    #expect(try number(cli.suspect("crow")["suspicion_level"]) == 0.9)
  }

  /// A perfect case file but for a foreign `application_id`: the check of the header is the
  /// only step that refuses it when faults are accepted (`check`'s own `application_id`
  /// finding is a fault that may be accepted, for a copy that lost its mark).
  @Test func restoreRefusesAForeignApplicationIDEvenAcceptingFaults() throws {
    let cli = try CLITestCase(seeded: true)
    let backup = try RestoreSafetyTests.changedBackup(
      cli, "other-app.sqlite", changedBy: "PRAGMA application_id = 123")
    #expect(try OperationsFixture.scalar("PRAGMA integrity_check", in: backup) == .text("ok"))
    #expect(
      try OperationsFixture.contents(of: backup)
        == OperationsFixture.contents(of: cli.databasePath))
    cli.succeed("suspect", "crow", "0.9")
    for arguments in [[backup, "--force"], [backup, "--force", "--accept-faults"]] {
      RestoreSafetyTests.expectRefusedRestore(
        cli, arguments,
        naming: "\(backup) is not a Fruit Inspectors case database (application_id 0x7B)")
    }
    #expect(try number(cli.suspect("crow")["suspicion_level"]) == 0.9)
  }
}
