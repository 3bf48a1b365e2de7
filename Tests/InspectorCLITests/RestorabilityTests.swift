import CaseStore
import Foundation
import SQLiteKit
import Testing

/// What `backup` makes, `restore` takes back, or `backup` says at once (exit 65, the same
/// findings) that the copy will not restore as it is, and keeps it; `restore --accept-faults`
/// restores such a copy on purpose, and `restore --dry-run` runs every check and replaces
/// nothing. Each fault is written into the live case file by the stock `sqlite3` shell, as
/// another client would (docs/operations.md "What restores").
@Suite(.tags(.slow, .fileOperations), .skippedInFastSet) struct RestorabilityTests {
  /// Faults another client can store, and the finding `backup` and `restore` both name.
  static let faults: [(sql: String, finding: String)] = [
    (
      // Letter case beyond Latin-1, which SQLite's NOCASE does not fold.
      "UPDATE animals SET species = 'Σκίουρος' WHERE id = 1;"
        + " UPDATE animals SET species = 'σκίουρος' WHERE id = 2;",
      "1 fault(s): animals id 1: 'Σκίουρος' (id 1) and 'σκίουρος' (id 2) are one species"
        + " ignoring case, so look-ups of it are ambiguous"
    ),
    (
      "DROP TRIGGER history_alibis_after_insert;",
      "1 fault(s): alibis: trigger history_alibis_after_insert is missing"
    ),
    (
      "DROP TRIGGER animals_level_before_update;",
      "1 fault(s): animals: trigger animals_level_before_update is missing"
    ),
    (
      "PRAGMA ignore_check_constraints = ON; UPDATE animals SET paw_size = 'huge' WHERE id = 5;",
      "2 fault(s): CHECK constraint failed in animals; animals id 5: paw_size 'huge' is not"
        + " small, medium or large"
    ),
  ]

  /// The message both commands give for a copy at `path` with `finding`.
  static func unrestorable(_ path: String, _ finding: String) -> String {
    "inspector: error: \(path) will not restore as it is: \(finding)"
  }

  @Test(arguments: faults)
  func aBackupThatWillNotRestoreSaysSoAtOnceAndIsKept(sql: String, finding: String) throws {
    let cli = try CLITestCase(seeded: true)
    try RestoreSafetyTests.shell(cli.databasePath, sql, in: cli)
    let copy = cli.directory.appendingPathComponent("backup.sqlite").path
    let backup = cli.run("backup", copy)
    #expect(backup.status == 65)
    let message = Self.unrestorable(copy, finding)
    #expect(lines(backup.standardError).first == message, "\(backup.standardError)")
    #expect(backup.standardError.contains("the copy is kept"))
    #expect(backup.standardOutput.contains("it will not restore as it is"))
    // The newest copy there is: kept, with the live database's rows.
    #expect(
      try OperationsFixture.contents(of: copy) == OperationsFixture.contents(of: cli.databasePath))
    let json = try jsonObject(cli.run("backup", copy, "--json").standardOutput)

    // restore refuses it with the same words, --force or not, and changes nothing.
    RestoreSafetyTests.expectRefusedRestore(
      cli, [copy, "--force"], naming: String(message.dropFirst("inspector: error: ".count)))
    RestoreSafetyTests.expectRefusedRestore(
      cli, [copy, "--force", "--dry-run"],
      naming: String(message.dropFirst("inspector: error: ".count)))

    // --accept-faults restores it as it is, into a new file: the backup's rows exactly.
    let restored = cli.directory.appendingPathComponent("restored.sqlite").path
    let outcome = cli.run("--db", restored, "restore", copy, "--accept-faults", "--json")
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let summary = try jsonObject(outcome.standardOutput)
    let faultCount = try #require((json["faults"] as? [Any])?.count)
    #expect(faultCount == Int(finding.prefix { $0 != " " }))
    #expect((summary["accepted_faults"] as? [Any])?.count == faultCount)
    #expect(try OperationsFixture.contents(of: restored) == OperationsFixture.contents(of: copy))
    let check = cli.run("--db", restored, "check", "--format", "csv")
    #expect(check.status == 65)
  }

  /// `--dry-run` runs every check, the destination's too, and leaves it byte for byte as it
  /// was; it exits 0 exactly when the restore would go ahead.
  @Test func aDryRunChecksEverythingAndReplacesNothing() throws {
    let cli = try CLITestCase(seeded: true)
    let copy = RestoreSafetyTests.seedBackup(cli, "backup.sqlite")
    cli.succeed("suspect", "crow", "0.9")
    let main = OperationsFixture.bytes(cli.databasePath)
    let wal = OperationsFixture.bytes(cli.databasePath + "-wal")
    #expect(
      cli.succeed("restore", copy, "--force", "--dry-run")
        == "Would restore \(cli.databasePath) from \(copy): schema version"
        + " \(OperationsFixture.latest), 10 suspect(s).\n")
    let json = try jsonObject(cli.succeed("restore", copy, "--force", "--dry-run", "--json"))
    #expect(json["dry_run"] as? Bool == true)
    #expect(json["created"] as? Bool == false)
    #expect(OperationsFixture.bytes(cli.databasePath) == main)
    #expect(OperationsFixture.bytes(cli.databasePath + "-wal") == wal)
    #expect(try number(cli.suspect("crow")["suspicion_level"]) == 0.9)
    // Without --force the destination's case data refuses it, as a real restore would.
    RestoreSafetyTests.expectRefusedRestore(
      cli, [copy, "--dry-run"], naming: "\(cli.databasePath) holds case data")
    // A missing destination is not created.
    let fresh = cli.directory.appendingPathComponent("fresh.sqlite").path
    cli.succeed("--db", fresh, "restore", copy, "--dry-run")
    #expect(!cli.fileExists(fresh))
  }

  /// --accept-faults takes faults of the case's rules and schema only: a damaged file, a
  /// foreign one, or a schema whose code does not compile is refused all the same.
  @Test func acceptingFaultsStillRefusesDamagedAndForeignFiles() throws {
    let cli = try CLITestCase(seeded: true)
    let damaged = RestoreSafetyTests.seedBackup(cli, "damaged.sqlite")
    try VerificationStepTests.damageIndexKeepingItsSchema(damaged)
    RestoreSafetyTests.expectRefusedRestore(
      cli, [damaged, "--force", "--accept-faults"],
      naming: "\(damaged) is damaged: row 10 missing from index animals_paw_size")
    let foreign = try RestoreSafetyTests.changedBackup(
      cli, "foreign.sqlite", changedBy: "PRAGMA application_id = 123")
    RestoreSafetyTests.expectRefusedRestore(
      cli, [foreign, "--force", "--accept-faults"],
      naming: "\(foreign) is not a Fruit Inspectors case database (application_id 0x7B)")
    let crafted = try RestoreSafetyTests.changedBackup(
      cli, "crafted.sqlite", changedBy: "CREATE VIEW nibblers AS SELECT evil(name) FROM animals")
    RestoreSafetyTests.expectRefusedRestore(
      cli, [crafted, "--force", "--accept-faults"],
      naming: "\(crafted) is damaged: view nibblers: no such function: evil")
    let text = cli.directory.appendingPathComponent("notes.txt").path
    try Data("Fabrizio was at the pond.\n".utf8).write(to: URL(fileURLWithPath: text))
    RestoreSafetyTests.expectRefusedRestore(
      cli, [text, "--force", "--accept-faults"], status: 66,
      naming: "\(text) is not an SQLite database")
  }
}
