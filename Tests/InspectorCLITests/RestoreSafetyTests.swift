import CaseStore
import Foundation
import SQLiteKit
import Testing

/// `inspector restore SRC` refuses what is not a sound case database before reading its data
/// or running any of its schema, accepts backups made before the application_id existed, and
/// asks for `--force` before replacing any case data. A refusal leaves the database byte for
/// byte as it was.
@Suite(.tags(.slow, .fileOperations), .skippedInFastSet) struct RestoreSafetyTests {
  /// Runs the stock `sqlite3` shell on `path` with `sql`; returns its stdout, and records an
  /// issue when it fails.
  @discardableResult
  static func shell(_ path: String, _ sql: String, in cli: CLITestCase) throws -> String {
    let result = try ChildProcess(
      "/usr/bin/sqlite3", [path, sql], environment: ["PATH": "/usr/bin:/bin"],
      directory: cli.directory
    ).wait()
    try #require(result.status == 0, "sqlite3 \(sql): \(result.standardError)")
    return result.standardOutput
  }

  /// A backup of the seed case at `name` in the test directory.
  static func seedBackup(_ cli: CLITestCase, _ name: String) -> String {
    let path = cli.directory.appendingPathComponent(name).path
    cli.succeed("backup", path)
    return path
  }

  /// A backup of the seed case at `name` in the test directory, then changed by the sqlite3
  /// shell running `sql`.
  static func changedBackup(_ cli: CLITestCase, _ name: String, changedBy sql: String) throws
    -> String
  {
    let path = seedBackup(cli, name)
    try shell(path, sql, in: cli)
    return path
  }

  /// Runs `restore arguments`, expects exit `status` naming `fragment`, and checks that the
  /// database file and its WAL are byte for byte as before.
  static func expectRefusedRestore(
    _ cli: CLITestCase, _ arguments: [String], status: Int32 = 65, naming fragment: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let main = OperationsFixture.bytes(cli.databasePath)
    let wal = OperationsFixture.bytes(cli.databasePath + "-wal")
    expectFailure(
      cli.run(["restore"] + arguments), status: status, messageContains: fragment,
      sourceLocation: sourceLocation)
    #expect(OperationsFixture.bytes(cli.databasePath) == main, sourceLocation: sourceLocation)
    #expect(
      OperationsFixture.bytes(cli.databasePath + "-wal") == wal, sourceLocation: sourceLocation)
  }

  /// Expects restoring (with `--force`) a seed backup `name` that the sqlite3 shell changed with
  /// `sql` to be refused naming `reason(path of the backup)`, the case file left as it was.
  static func expectChangedBackupRefused(
    _ name: String, changedBy sql: String, sourceLocation: SourceLocation = #_sourceLocation,
    naming reason: (String) -> String
  ) throws {
    let cli = try CLITestCase(seeded: true)
    let backup = try changedBackup(cli, name, changedBy: sql)
    expectRefusedRestore(
      cli, [backup, "--force"], naming: reason(backup), sourceLocation: sourceLocation)
  }

  /// The seed case without its suspects: fruits and the incident only.
  static func removeSuspects(_ cli: CLITestCase) {
    cli.succeed(
      "sql", "--write",
      """
      DELETE FROM favorite_fruits; DELETE FROM suspicion_levels; DELETE FROM alibis;
      DELETE FROM sleep_schedules; DELETE FROM animals
      """)
    #expect(cli.succeed("list", "--json") == "[]\n")
  }

  /// A backup that carries a trigger of its own would run it in the live case file after the
  /// restore; one whose schema lost a trigger of ours would let other clients store what the
  /// tool refuses. Both are refused unless the faults are accepted on purpose, and the
  /// Litestream table it may carry is accepted.
  @Test(arguments: [
    (
      "CREATE TRIGGER wipe AFTER UPDATE ON alibis BEGIN DELETE FROM favorite_fruits; END",
      "will not restore as it is: 1 fault(s): alibis: trigger wipe on alibis is not inspector's"
    ),
    (
      "DROP TRIGGER animals_level_before_update",
      "will not restore as it is: 1 fault(s): animals: trigger animals_level_before_update is"
        + " missing"
    ),
  ])
  func aBackupWhoseSchemaIsNotOursIsRefused(change: String, reason: String) throws {
    try Self.expectChangedBackupRefused("changed.sqlite", changedBy: change) { "\($0) \(reason)" }
  }

  /// What `check` calls a note, `restore` takes: a view another tool keeps beside the case
  /// (Datasette's users make them) and a trigger on that tool's own table run nothing in the
  /// case's tables, so a backup of a file `check` passes restores as it is.
  @Test func aBackupWithAnotherToolsViewAndTableTriggerRestores() throws {
    let cli = try CLITestCase(seeded: true)
    try Self.shell(
      cli.databasePath,
      """
      CREATE VIEW everyone AS SELECT name, species FROM animals;
      CREATE TRIGGER everyone_insert INSTEAD OF INSERT ON everyone BEGIN
        INSERT INTO notes (text) VALUES (new.name);
      END;
      CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT, seen INTEGER);
      CREATE TRIGGER notes_seen AFTER INSERT ON notes BEGIN
        UPDATE notes SET seen = 1 WHERE id = new.id;
      END;
      """, in: cli)
    #expect(cli.run("check").status == 0)
    let backup = cli.directory.appendingPathComponent("with-view.sqlite").path
    cli.succeed("backup", backup)
    cli.succeed("suspect", "crow", "0.9")
    cli.succeed("restore", backup, "--force")
    #expect(try Self.shell(cli.databasePath, "SELECT count(*) FROM everyone", in: cli) == "10\n")
    #expect(cli.run("check").status == 0)
  }

  /// A view that does not compile (a column or function it names is gone) makes a restore
  /// refuse the file as damaged; `check` says so too, and `backup` at once.
  @Test func aViewThatDoesNotCompileIsAFaultForCheckAsForBackup() throws {
    let cli = try CLITestCase(seeded: true)
    try Self.shell(
      cli.databasePath, "CREATE VIEW broken AS SELECT nosuchcol FROM animals;", in: cli)
    let check = cli.run("check")
    #expect(check.status == 65)
    #expect(
      check.standardError.contains("view broken: no such column: nosuchcol (it does not compile"))
    let backup = cli.directory.appendingPathComponent("broken.sqlite").path
    expectFailure(
      cli.run("backup", backup), status: 65,
      messageContains: "is damaged: view broken: no such column: nosuchcol")
  }

  /// SQLite's integrity_check skips CHECK constraints on a read-only connection: a backup whose
  /// rows break a CHECK (stored with the checks off) was copied over the database before the
  /// copy's own check refused it. The source is now checked on a query-only connection that
  /// sees them, and by the case's own rules, before anything is touched.
  @Test(arguments: [
    ("UPDATE animals SET paw_size = 'huge' WHERE id = 2", "CHECK constraint failed in animals"),
    ("UPDATE fruits SET color = 'Not A Colour!' WHERE id = 1", "CHECK constraint failed in fruits"),
  ])
  func aBackupWhoseRowsBreakACheckIsRefusedBeforeTheCopy(change: String, problem: String)
    throws
  {
    let cli = try CLITestCase(seeded: true)
    let backup = try Self.changedBackup(
      cli, "unchecked.sqlite", changedBy: "PRAGMA ignore_check_constraints = ON; \(change)")
    cli.succeed("suspect", "raccoon", "0.9")
    Self.expectRefusedRestore(
      cli, [backup, "--force"],
      naming: "\(backup) will not restore as it is: 2 fault(s): \(problem)")
    #expect(try cli.suspect("raccoon")["suspicion_level"] as? Double == 0.9)
  }

  @Test func aBackupWithLitestreamTablesIsRestored() throws {
    let cli = try CLITestCase(seeded: true)
    let backup = try Self.changedBackup(
      cli, "replicated.sqlite",
      changedBy: "CREATE TABLE _litestream_seq (id INTEGER PRIMARY KEY, seq INTEGER);"
        + " INSERT INTO _litestream_seq VALUES (1, 7);")
    cli.succeed("suspect", "crow", "0.9")
    cli.succeed("restore", backup, "--force")
    #expect(try cli.suspect("crow")["suspicion_level"] as? Double == 0.0)
  }

  @Test func unrelatedSQLiteFileIsRefusedEvenWhenNoSuspectsRemain() throws {
    let cli = try CLITestCase(seeded: true)
    Self.removeSuspects(cli)
    let unrelated = cli.directory.appendingPathComponent("notes.sqlite").path
    try Self.shell(
      unrelated, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('buy plums')", in: cli)
    let message = "\(unrelated) is not a Fruit Inspectors case database"
    Self.expectRefusedRestore(cli, [unrelated], naming: message)
    Self.expectRefusedRestore(cli, [unrelated, "--force"], naming: message)
    #expect(cli.succeed("fruit", "list", "--json").contains("Pink Pearl Apple"))
  }

  @Test func foreignApplicationIDIsRefused() throws {
    try Self.expectChangedBackupRefused(
      "other-app.sqlite", changedBy: "PRAGMA application_id = 42"
    ) { other in
      "\(other) is not a Fruit Inspectors case database (application_id 0x2A)"
    }
  }

  @Test func fruitsAndIncidentsWithoutSuspectsNeedForce() throws {
    let cli = try CLITestCase(seeded: true)
    let backup = Self.seedBackup(cli, "backup.sqlite")
    Self.removeSuspects(cli)
    Self.expectRefusedRestore(
      cli, [backup],
      naming:
        "\(cli.databasePath) holds case data (19 row(s) in fruits, 2 row(s) in history_change_sets,"
        + " 1 row(s) in incidents)")
    let outcome = cli.run("restore", backup)
    #expect(outcome.standardError.contains("hint: add --force to replace it"))
    cli.succeed("restore", backup, "--force")
    #expect(try cli.suspect("crow")["name"] as? String == "Catie")
  }

  @Test func olderCaseBackupIsRestoredAndAsksForMigrateUp() throws {
    let cli = try CLITestCase()
    let old = cli.directory.appendingPathComponent("v1.sqlite").path
    try OperationsFixture.makeVersionOneDatabase(at: old)
    #expect(try OperationsFixture.scalar("PRAGMA application_id", in: old) == .integer(0))
    let latest = OperationsFixture.latest
    #expect(
      cli.succeed("restore", old)
        == "Restored \(cli.databasePath) from \(old): schema version 1, 1 suspect(s)."
        + " It predates this inspector's schema (version \(latest)): run 'inspector migrate up'"
        + " before using it.\n")
    let json = try jsonObject(
      cli.succeed(
        "--db", cli.directory.appendingPathComponent("second.sqlite").path, "restore", old,
        "--json"))
    #expect(json["migration_needed"] as? Bool == true)
    #expect(json["schema_version"] as? Int == 1)
    cli.succeed("migrate", "up")
    #expect(try cli.suspect("crow")["name"] as? String == "Catie")
    // An up-to-date backup needs nothing more.
    let current = try jsonObject(
      cli.succeed(
        "--db", cli.directory.appendingPathComponent("third.sqlite").path, "restore",
        Self.seedBackup(cli, "current.sqlite"), "--json"))
    #expect(current["migration_needed"] as? Bool == false)
  }

  @Test func olderFileWithUnknownMigrationsIsRefused() throws {
    let cli = try CLITestCase(seeded: true)
    let old = cli.directory.appendingPathComponent("v1.sqlite").path
    try OperationsFixture.makeVersionOneDatabase(at: old)
    try Self.shell(old, "UPDATE schema_migrations SET checksum = 'forged'", in: cli)
    Self.expectRefusedRestore(
      cli, [old, "--force"], naming: "\(old) is not a Fruit Inspectors case database")
  }

  @Test(arguments: [
    ("view nibblers", "CREATE VIEW nibblers AS SELECT evil(name) FROM animals"),
    (
      "a trigger on fruits",
      "CREATE TRIGGER spy AFTER UPDATE OF color ON fruits BEGIN SELECT evil(new.name); END"
    ),
  ])
  func viewOrTriggerCallingAFunctionIsRefused(object: String, sql: String) throws {
    try Self.expectChangedBackupRefused("crafted.sqlite", changedBy: sql) { crafted in
      "\(crafted) is damaged: \(object): no such function: evil"
    }
  }

  @Test func randomBytesAfterTheHeaderOrATruncatedFileAreRefused() throws {
    let cli = try CLITestCase(seeded: true)
    let noisy = Self.seedBackup(cli, "noisy.sqlite")
    var bytes = try #require(OperationsFixture.bytes(noisy))
    var generator = SystemRandomNumberGenerator()
    for index in 100..<bytes.count { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
    try bytes.write(to: URL(fileURLWithPath: noisy))
    Self.expectRefusedRestore(cli, [noisy, "--force"], naming: "\(noisy) is damaged")

    let truncated = Self.seedBackup(cli, "truncated.sqlite")
    let whole = try #require(OperationsFixture.bytes(truncated))
    try whole.prefix(6000).write(to: URL(fileURLWithPath: truncated))
    Self.expectRefusedRestore(cli, [truncated, "--force"], naming: "\(truncated) is damaged")
    try whole.prefix(60).write(to: URL(fileURLWithPath: truncated))
    Self.expectRefusedRestore(
      cli, [truncated, "--force"], naming: "\(truncated) is damaged: the file ends inside")
  }
}

/// A backup whose case history disagrees with its rows is still restored: the rows are sound,
/// and `check` reports the history afterwards.
@Suite struct RestoreOfAnIncompleteHistoryTests {
  @Test func aHistoryThatDisagreesDoesNotBlockARestore() throws {
    let cli = try CLITestCase(seeded: true)
    let source = cli.directory.appendingPathComponent("source.sqlite").path
    cli.succeed("backup", source)
    // Another client writes with the history's trigger on alibis dropped, then puts it back.
    let client = try Connection(path: source)
    let trigger = try #require(
      try client.scalar(
        "SELECT sql FROM sqlite_schema WHERE name = 'history_alibis_after_insert'")?.textValue)
    try client.execute(
      """
      DROP TRIGGER history_alibis_after_insert;
      INSERT INTO alibis (animal_id, statement) VALUES (2, 'Under a leaf');
      """)
    try client.execute(trigger)
    let restored = cli.run("restore", source, "--force")
    #expect(restored.status == 0, "\(restored.standardError)")
    #expect(try cli.suspect("snail")["alibi"] as? String == "Under a leaf")
    let check = cli.run("check", "--json")
    #expect(check.status == 65)
    #expect(check.standardOutput.contains("\"history\""))
  }
}
