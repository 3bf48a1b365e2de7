import CaseStore
import Foundation
import SQLiteKit
import Testing

@testable import InspectorCLI

/// `sql`, `backup`, `restore`, `check` and `migrate` through the command line (issue 4).
@Suite(.tags(.slow, .fileOperations), .skippedInFastSet) struct OperationsCommandTests {
  private let latest = OperationsFixture.latest
  /// How many migrations this binary carries (versions may skip a number, reserved for
  /// another branch).
  private let migrationCount = CaseDatabase.migrator.migrations.count
  private let migrations = OperationsFixture.migrations

  private func count(_ table: String, _ cli: CLITestCase) throws -> Int {
    let rows = try jsonArray(cli.succeed("sql", "SELECT count(*) AS n FROM \(table)", "--json"))
    return try #require(rows.first?["n"] as? Int)
  }

  // MARK: - sql: read-only unless --write

  @Test(arguments: [
    "DELETE FROM animals",
    "UPDATE suspicion_levels SET level = 1",
    "INSERT INTO fruits (name, color) VALUES ('Kiwi', 'green')",
    "DROP TABLE favorite_fruits",
    "PRAGMA user_version = 7",
    "SELECT 1; DELETE FROM animals",
  ])
  func sqlRefusesWritesWithoutWrite(sql: String) throws {
    let cli = try CLITestCase(seeded: true)
    let before = OperationsFixture.bytes(cli.databasePath)
    let outcome = cli.run("sql", sql)
    expectFailure(outcome, status: 65, messageContains: "sql is read-only")
    #expect(outcome.standardError.contains("hint: add --write"))
    #expect(OperationsFixture.bytes(cli.databasePath) == before)
    #expect(try count("animals", cli) == 10)
    #expect(try count("favorite_fruits", cli) == 27)
    // Nothing in inspector writes the header's user_version, so it is still 0.
    #expect(
      try OperationsFixture.scalar("PRAGMA user_version", in: cli.databasePath) == .integer(0))
  }

  @Test func sqlVacuumIntoAndAttachCreateNoFile() throws {
    let cli = try CLITestCase(seeded: true)
    let copy = cli.directory.appendingPathComponent("copy.sqlite").path
    let other = cli.directory.appendingPathComponent("other.sqlite").path
    let before = try cli.directoryContents()
    expectFailure(cli.run("sql", "VACUUM INTO '\(copy)'"), status: 65)
    expectFailure(
      cli.run("sql", "ATTACH DATABASE '\(other)' AS other"), status: 65,
      messageContains: "sql may not attach another database")
    #expect(!cli.fileExists(copy))
    #expect(!cli.fileExists(other))
    #expect(try companionsIgnored(cli.directoryContents()) == companionsIgnored(before))
  }

  /// Directory entries without the database's own `-wal` and `-shm` files (a read-only
  /// connection to a WAL database may create them).
  private func companionsIgnored(_ names: [String]) -> [String] {
    names.filter { !$0.hasSuffix(".sqlite-wal") && !$0.hasSuffix(".sqlite-shm") }
  }

  @Test func sqlFailingWriteScriptLeavesNothing() throws {
    let cli = try CLITestCase(seeded: true)
    let before = try count("fruits", cli)
    let outcome = cli.run(
      "sql", "--write",
      """
      INSERT INTO fruits (name, color) VALUES ('Kiwi', 'green');
      UPDATE suspicion_levels SET level = 0.9;
      INSERT INTO fruits (name, color) VALUES ('kiwi', 'brown');
      """)
    expectFailure(
      outcome, status: 65, messageContains: "UNIQUE constraint failed: fruits.name_key")
    #expect(before == 19)
    #expect(try count("fruits", cli) == before)
    let kiwi = try jsonArray(
      cli.succeed("sql", "SELECT id FROM fruits WHERE name = 'Kiwi'", "--json"))
    #expect(kiwi.isEmpty)
    #expect(try number(cli.suspect("crow")["suspicion_level"]) == 0)
  }

  @Test func sqlScriptCannotCommitHalfOfItself() throws {
    let cli = try CLITestCase(seeded: true)
    let outcome = cli.run(
      "sql", "--write",
      """
      INSERT INTO fruits (name, color) VALUES ('Kiwi', 'green');
      COMMIT;
      INSERT INTO fruits (name, color) VALUES ('kiwi', 'brown');
      """)
    #expect(outcome.status == 65)
    #expect(try count("fruits", cli) == 19)
  }

  @Test func sqlNamedParametersAreBoundNeverSpliced() throws {
    let cli = try CLITestCase(seeded: true)
    let hostile = "'); DROP TABLE animals;--"
    cli.succeed(
      "sql", "--write", "INSERT INTO fruits (name, color) VALUES (:name, @color)",
      "--param", "name=\(hostile)", "--param", "@color=red")
    let rows = try jsonArray(
      cli.succeed(
        "sql", "SELECT name, color FROM fruits WHERE name = $name", "--param", "name=\(hostile)",
        "--json"))
    #expect(rows.count == 1)
    #expect(rows.first?["name"] as? String == hostile)
    #expect(rows.first?["color"] as? String == "red")
    #expect(try count("animals", cli) == 10)
    #expect(try count("fruits", cli) == 20)
    // A number binds as an integer: the Crow's row by id.
    let crow = try #require(try cli.suspect("crow")["id"] as? Int)
    let byID = try jsonArray(
      cli.succeed(
        "sql", "SELECT species FROM animals WHERE id = :id", "--param", "id=\(crow)", "--json"))
    #expect(byID.first?["species"] as? String == "Crow")
  }

  @Test func sqlParameterErrors() throws {
    let cli = try CLITestCase(seeded: true)
    let noEquals = cli.run("sql", "SELECT :species", "--param", "species")
    #expect(noEquals.status == 64)
    #expect(noEquals.standardOutput == "")
    #expect(
      noEquals.standardError.hasPrefix(
        "inspector: error: The value 'species' is invalid for '--param <name=value>'"))
    expectFailure(
      cli.run("sql", "SELECT :species"), status: 65,
      messageContains: "invalid parameter ':species'")
    expectFailure(
      cli.run("sql", "SELECT 1", "--param", "unused=1"), status: 65,
      messageContains: "invalid parameter 'unused'")
    expectFailure(
      cli.run(
        "sql", "--write", "INSERT INTO fruits (name, color) VALUES ('Kiwi', :color)", "--param",
        "colour=green"),
      status: 65)
    #expect(try count("fruits", cli) == 19)
  }

  @Test func sqlSyntaxErrorIsSQLitesMessage() throws {
    let cli = try CLITestCase(seeded: true)
    let outcome = cli.run("sql", "SELEC name FROM fruits")
    #expect(outcome.status == 65)
    #expect(outcome.standardOutput == "")
    #expect(outcome.standardError == "inspector: error: near \"SELEC\": syntax error\n")
  }

  @Test func sqlPrintsTheLastRowReturningStatement() throws {
    let cli = try CLITestCase(seeded: true)
    let output = cli.succeed(
      "sql", "--write", "--json",
      """
      SELECT name FROM fruits;
      SELECT species FROM animals WHERE paw_size = 'medium' ORDER BY species;
      UPDATE fruits SET color = 'green' WHERE name = 'Elstar Apple';
      """)
    let rows = try jsonArray(output)
    #expect(rows.map { $0["species"] as? String } == ["Duck", "Raccoon"])
    #expect(rows.allSatisfy { $0.keys.sorted() == ["species"] })
    let elstar = try jsonArray(
      cli.succeed("sql", "SELECT color FROM fruits WHERE name = 'Elstar Apple'", "--json"))
    #expect(elstar.first?["color"] as? String == "green")
  }

  // MARK: - sql: JSON and CSV read back exactly

  private struct Exhibit: Decodable, Equatable {
    var quoted: String
    var nul: String
    var big: Int64
    var tenth: Double
    var absent: String?
    var empty: String
  }

  /// A table written by plain SQL holding the awkward values.
  private func exhibitCase() throws -> CLITestCase {
    let cli = try CLITestCase(seeded: true)
    cli.succeed(
      "sql", "--write",
      """
      CREATE TABLE exhibits (quoted TEXT, nul TEXT, big INTEGER, tenth REAL, absent TEXT,
        empty TEXT);
      INSERT INTO exhibits VALUES ('a,"b"' || char(10) || 'c', 'a' || char(0) || 'b',
        9223372036854775807, 0.1, NULL, '');
      """)
    return cli
  }

  @Test func sqlJSONReadsBackExactly() throws {
    let cli = try exhibitCase()
    let output = cli.succeed("sql", "SELECT * FROM exhibits", "--json")
    #expect(output.contains(#""nul": "a\u0000b""#))
    #expect(output.contains(#""big": 9223372036854775807"#))
    #expect(output.contains(#""absent": null"#))
    let decoded = try JSONDecoder().decode([Exhibit].self, from: Data(output.utf8))
    #expect(
      decoded == [
        Exhibit(
          quoted: "a,\"b\"\nc", nul: "a\u{0}b", big: 9_223_372_036_854_775_807, tenth: 0.1,
          absent: nil, empty: "")
      ])
    let object = try #require(try jsonArray(output).first)
    #expect(object["big"] as? Int64 == Int64.max)
    #expect(number(object["tenth"]) == 0.1)
    #expect(object["absent"] is NSNull)
    #expect(object["empty"] as? String == "")
    #expect((object["nul"] as? String)?.unicodeScalars.map(\.value) == [0x61, 0, 0x62])
  }

  @Test func sqlCSVReadsBackExactly() throws {
    let cli = try exhibitCase()
    let output = cli.succeed("sql", "SELECT * FROM exhibits", "--format", "csv")
    #expect(
      output
        == "quoted,nul,big,tenth,absent,empty\r\n"
        + "\"a,\"\"b\"\"\nc\",a\u{0}b,9223372036854775807,0.1,,\"\"\r\n")
    let records = parseCSV(output)
    #expect(records.count == 2)
    #expect(records.first?.map(\.text) == ["quoted", "nul", "big", "tenth", "absent", "empty"])
    let row = try #require(records.last)
    #expect(row.map(\.text) == ["a,\"b\"\nc", "a\u{0}b", "9223372036854775807", "0.1", "", ""])
    #expect(row.map(\.quoted) == [true, false, false, false, false, true])  // NULL vs ''
    #expect(Int64(row[2].text) == Int64.max)
    #expect(Double(row[3].text) == 0.1)
  }

  /// A strict RFC 4180 reader: records of (text, whether the field was quoted).
  private func parseCSV(_ text: String) -> [[(text: String, quoted: Bool)]] {
    var records: [[(text: String, quoted: Bool)]] = []
    var record: [(text: String, quoted: Bool)] = []
    var field = ""
    var quoted = false
    var inQuotes = false
    var scalars = Array(text.unicodeScalars)[...]
    while let scalar = scalars.popFirst() {
      if inQuotes {
        if scalar == "\"" {
          if scalars.first == "\"" {
            field.unicodeScalars.append(scalars.removeFirst())
          } else {
            inQuotes = false
          }
        } else {
          field.unicodeScalars.append(scalar)
        }
      } else if scalar == "\"" && field.isEmpty {
        inQuotes = true
        quoted = true
      } else if scalar == "," {
        record.append((field, quoted))
        field = ""
        quoted = false
      } else if scalar == "\r" && scalars.first == "\n" {
        scalars.removeFirst()
        record.append((field, quoted))
        records.append(record)
        record = []
        field = ""
        quoted = false
      } else {
        field.unicodeScalars.append(scalar)
      }
    }
    if !record.isEmpty || !field.isEmpty { records.append(record + [(field, quoted)]) }
    return records
  }

  // MARK: - backup

  @Test func backupIsPrivateSelfContainedAndComplete() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("suspect", "crow", "0.9")
    let destination = cli.directory.appendingPathComponent("backup.sqlite").path
    let output = cli.succeed("backup", destination)
    #expect(output.hasPrefix("Backed up \(cli.databasePath) to \(destination) ("))
    #expect(try OperationsFixture.mode(destination) == 0o600)
    let header = try #require(OperationsFixture.bytes(destination))
    #expect(Array(header.prefix(16)) == Array("SQLite format 3\u{0}".utf8))
    #expect([header[18], header[19]] == [1, 1])
    #expect(!cli.fileExists(destination + "-wal"))
    #expect(try cli.directoryContents().filter { $0.contains("backup") } == ["backup.sqlite"])
    let backup = try Connection(path: destination, mode: .readOnly)
    #expect(try backup.integrityCheck() == ["ok"])
    #expect(
      try OperationsFixture.contents(of: destination)
        == OperationsFixture.contents(of: cli.databasePath))
    #expect(
      try backup.scalar(
        "SELECT level FROM suspicion_levels JOIN animals ON animals.id = animal_id"
          + " WHERE species = 'Crow'") == .real(0.9))
  }

  @Test func backupIntoMissingOrUnwritableDirectoryExits73() throws {
    let cli = try CLITestCase(seeded: true)
    let before = try cli.directoryContents()
    let missing = cli.directory.appendingPathComponent("missing/backup.sqlite").path
    expectFailure(
      cli.run("backup", missing), status: 73,
      messageContains: "cannot create \(missing): No such file or directory")
    #expect(!cli.fileExists(cli.directory.appendingPathComponent("missing").path))
    // A regular file where the directory should be: not writable as a directory by anyone.
    let notADirectory = cli.directory.appendingPathComponent("plain.txt")
    try Data("x".utf8).write(to: notADirectory)
    expectFailure(
      cli.run("backup", notADirectory.path + "/backup.sqlite"), status: 73,
      messageContains: "cannot create")
    #expect(
      try companionsIgnored(cli.directoryContents())
        == companionsIgnored((before + ["plain.txt"]).sorted()))
    // A read-only directory (root writes anyway, so only when not root).
    let locked = cli.directory.appendingPathComponent("locked")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
    try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: locked.path)
    defer {
      try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: locked.path)
    }
    if geteuid() != 0 {
      expectFailure(
        cli.run("backup", locked.path + "/backup.sqlite"), status: 73,
        messageContains: "Permission denied")
      #expect(try FileManager.default.contentsOfDirectory(atPath: locked.path) == [])
    }
  }

  @Test(.tags(.concurrency, .processes))
  func backupWhileAnotherProcessInsertsHoldsWholeTransactions() throws {
    let cli = try CLITestCase(seeded: true)
    let inspector = try OperationsFixture.inspectorPath()
    // Some ballast, so that the copy takes several steps of the online backup.
    cli.succeed(
      "sql", "--write",
      """
      CREATE TABLE ballast (payload BLOB);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500)
      INSERT INTO ballast SELECT randomblob(4000) FROM n;
      """)
    let stop = cli.directory.appendingPathComponent("stop").path
    // Each `sql --write` run is one transaction of 10 inserted fruits named `Batch N-K`.
    let writer = try ChildProcess(
      "/bin/bash",
      [
        "-c",
        """
        set -eu
        i=0
        while [ ! -e "$STOP" ]; do
          i=$((i + 1))
          script=""
          for k in 1 2 3 4 5 6 7 8 9 10; do
            script="$script INSERT INTO fruits (name, color) VALUES ('Batch $i-$k', 'red');"
          done
          "$INSPECTOR" --db "$DB" sql --write "$script" >/dev/null
        done
        """,
      ],
      environment: [
        "PATH": "/usr/bin:/bin", "INSPECTOR": inspector, "DB": cli.databasePath, "STOP": stop,
      ], directory: cli.directory)
    defer { _ = FileManager.default.createFile(atPath: stop, contents: nil) }

    /// Waits (polling, no deadline) until the live database holds more than `count` fruits.
    func waitForFruits(moreThan count: Int64) throws {
      for _ in 0..<100_000 {
        let live = try OperationsFixture.scalar("SELECT count(*) FROM fruits", in: cli.databasePath)
        if let live = live?.integerValue, live > count { return }
        usleep(2_000)
      }
      Issue.record("the writer never got past \(count) fruits")
    }

    try waitForFruits(moreThan: 19)
    var counts: [Int64] = []
    for index in 1...5 {
      let destination = cli.directory.appendingPathComponent("backup-\(index).sqlite").path
      cli.succeed("backup", destination)
      let backup = try Connection(path: destination, mode: .readOnly)
      #expect(try backup.integrityCheck() == ["ok"])
      #expect(try backup.foreignKeyCheck().isEmpty)
      let fruits = try #require(try backup.scalar("SELECT count(*) FROM fruits")?.integerValue)
      // 19 seed fruits plus whole batches of 10.
      #expect(fruits % 10 == 9, "backup \(index) holds \(fruits) fruits")
      let partial = try backup.scalar(
        """
        SELECT count(*) FROM (
          SELECT substr(name, 1, instr(name, '-') - 1) AS batch FROM fruits
          WHERE name LIKE 'Batch %' GROUP BY batch HAVING count(*) <> 10)
        """)
      #expect(partial == .integer(0))
      #expect(try backup.scalar("SELECT count(*) FROM ballast") == .integer(2500))
      counts.append(fruits)
    }
    // The writer was running before the first backup and still after the last one.
    #expect(counts.allSatisfy { $0 > 19 })
    try waitForFruits(moreThan: counts.max() ?? 0)
    _ = FileManager.default.createFile(atPath: stop, contents: nil)
    let result = try writer.wait()
    #expect(result.status == 0, "writer: \(result.standardError)")
    #expect(cli.run("check").status == 0)
  }

  // MARK: - restore

  @Test func restoreRefusalsLeaveTheDatabaseByteIdentical() throws {
    let cli = try CLITestCase(seeded: true)
    let directory = cli.directory
    let backup = directory.appendingPathComponent("backup.sqlite").path
    cli.succeed("backup", backup)
    // The current database now differs from the backup, so a restore would show.
    cli.succeed("suspect", "crow", "0.9")

    let text = directory.appendingPathComponent("notes.txt").path
    try Data("Fabrizio was at the pond all night.\n".utf8).write(to: URL(fileURLWithPath: text))
    let full = try #require(OperationsFixture.bytes(backup))
    let truncated = directory.appendingPathComponent("truncated.sqlite").path
    try full.prefix(full.count / 2).write(to: URL(fileURLWithPath: truncated))
    let newer = directory.appendingPathComponent("newer.sqlite").path
    cli.succeed("backup", newer)
    try Connection(path: newer, walMode: false).execute(
      "INSERT INTO schema_migrations VALUES (99, 'future', 'abc', '2030-01-01T00:00:00Z')")
    let missing = directory.appendingPathComponent("missing.sqlite").path

    let mainBefore = try #require(OperationsFixture.bytes(cli.databasePath))
    let walBefore = OperationsFixture.bytes(cli.databasePath + "-wal")

    let missingOutcome = cli.run("restore", missing)
    expectFailure(missingOutcome, status: 66, messageContains: "no file at \(missing)")
    expectFailure(
      cli.run("restore", text, "--force"), status: 66,
      messageContains: "\(text) is not an SQLite database")
    let truncatedOutcome = cli.run("restore", truncated, "--force")
    #expect([65, 66].contains(truncatedOutcome.status))
    expectFailure(truncatedOutcome, status: truncatedOutcome.status, messageContains: truncated)
    let newerOutcome = cli.run("restore", newer, "--force")
    expectFailure(newerOutcome, status: 65, messageContains: "version 99")
    #expect(newerOutcome.standardError.contains("(\(latest))"))
    let suspects = cli.run("restore", backup)
    expectFailure(
      suspects, status: 65, messageContains: "10 row(s) in animals")
    #expect(suspects.standardError.contains("refusing to replace it without --force"))
    #expect(suspects.standardError.contains("hint: add --force"))

    #expect(OperationsFixture.bytes(cli.databasePath) == mainBefore)
    #expect(OperationsFixture.bytes(cli.databasePath + "-wal") == walBefore)
    #expect(try number(cli.suspect("crow")["suspicion_level"]) == 0.9)
  }

  @Test func forcedRestoreReplacesTheData() throws {
    let cli = try CLITestCase(seeded: true)
    let backup = cli.directory.appendingPathComponent("backup.sqlite").path
    cli.succeed("backup", backup)
    let expected = try OperationsFixture.contents(of: backup)
    cli.succeed("suspect", "crow", "0.9")
    cli.succeed("fruit", "add", "Kiwi", "--color", "green")
    cli.succeed("animal", "remove", "dove")
    #expect(try OperationsFixture.contents(of: cli.databasePath) != expected)

    let output = cli.succeed("restore", backup, "--force")
    #expect(
      output
        == "Restored \(cli.databasePath) from \(backup): schema version \(latest), 10 suspect(s).\n"
    )
    #expect(try OperationsFixture.contents(of: cli.databasePath) == expected)
    #expect(try number(cli.suspect("crow")["suspicion_level"]) == 0)
    #expect(try cli.suspects().count == 10)
    #expect(cli.run("check").status == 0)
  }

  @Test func restoreIntoMissingPathCreatesAPrivateFile() throws {
    let cli = try CLITestCase(seeded: true)
    let backup = cli.directory.appendingPathComponent("backup.sqlite").path
    cli.succeed("backup", backup)
    let fresh = cli.directory.appendingPathComponent("fresh.sqlite").path
    let outcome = cli.run("--db", fresh, "restore", backup, "--json")
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let summary = try jsonObject(outcome.standardOutput)
    #expect(summary["created"] as? Bool == true)
    #expect(summary["suspects"] as? Int == 10)
    #expect(try OperationsFixture.mode(fresh) == 0o600)
    #expect(try OperationsFixture.contents(of: fresh) == OperationsFixture.contents(of: backup))
  }

  // MARK: - check

  @Test func checkPassesOnAFreshDemoDatabase() throws {
    let cli = try CLITestCase()
    cli.succeed("demo")
    let report = try jsonObject(cli.succeed("check", "--json"))
    #expect(report["ok"] as? Bool == true)
    #expect(report["integrity_check"] as? [String] == ["ok"])
    #expect((report["foreign_key_check"] as? [Any])?.isEmpty == true)
    #expect((report["findings"] as? [Any])?.isEmpty == true)
    let text = cli.succeed("check")
    #expect(
      text == """
          integrity_check    ok
          foreign_key_check  ok
          migrations         ok (version \(latest))
          schema             ok
          case rules         ok
          history            ok
          files              ok

        """)
  }

  @Test func checkFailsOnADanglingFavorite() throws {
    let cli = try CLITestCase(seeded: true)
    let writer = try Connection(path: cli.databasePath)
    try writer.execute("PRAGMA foreign_keys = OFF")
    try writer.execute(
      "INSERT INTO favorite_fruits (animal_id, fruit_id, position) VALUES (999, 1, 0)")
    let outcome = cli.run("check")
    #expect(outcome.status == 65)
    #expect(
      lines(outcome.standardError) == [
        "inspector: error: check found 1 fault(s); the first: favorite_fruits animal_id 999,"
          + " fruit_id 1: refers to a row of animals that does not exist",
        "hint: remove the row or restore the missing animals row",
      ])
    #expect(outcome.standardOutput.contains("foreign_key_check  1 fault(s)"))
  }

  @Test func checkFailsOnDrift() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("sql", "--write", "UPDATE schema_migrations SET checksum = 'x' WHERE version = 1")
    let outcome = cli.run("check")
    #expect(outcome.status == 65)
    #expect(outcome.standardError.contains("migration 1 initial is drift"))
  }

  // MARK: - migrate

  @Test func migrateStatusOnAFreshDatabase() throws {
    let cli = try CLITestCase(seeded: true)
    let rows = try jsonArray(cli.succeed("migrate", "status", "--json"))
    #expect(rows.map { $0["version"] as? Int } == migrations.map(\.version))
    #expect(rows.prefix(2).map { $0["name"] as? String } == ["initial", "incidents"])
    #expect(rows.map { $0["name"] as? String } == migrations.map(\.name))
    #expect(
      rows.map { $0["state"] as? String } == Array(repeating: "applied", count: migrationCount))
    for row in rows {
      #expect(row.keys.sorted() == ["applied_at", "name", "state", "version"])
      let appliedAt = try #require(row["applied_at"] as? String)
      #expect(appliedAt.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil)
    }
    #expect(cli.succeed("migrate", "up") == "Up to date (schema version \(latest)).\n")
  }

  @Test func driftIsMarkedAndBlocksUp() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("sql", "--write", "UPDATE schema_migrations SET checksum = 'x' WHERE version = 1")
    let rows = try jsonArray(cli.succeed("migrate", "status", "--json"))
    #expect(
      rows.map { $0["state"] as? String }
        == ["drift"] + Array(repeating: "applied", count: migrationCount - 1))
    let before = try OperationsFixture.contents(of: cli.databasePath)
    for arguments in [["migrate", "up"], ["migrate", "up", "--dry-run"]] {
      let outcome = cli.run(arguments)
      expectFailure(outcome, status: 65, messageContains: "migration drift")
      #expect(outcome.standardError.contains("1"))
    }
    #expect(try OperationsFixture.contents(of: cli.databasePath) == before)
  }

  @Test func versionOneDatabaseIsUpgradedOnlyByMigrateUp() throws {
    let cli = try CLITestCase()
    try OperationsFixture.makeVersionOneDatabase(at: cli.databasePath)
    let status = try jsonArray(cli.succeed("migrate", "status", "--json"))
    #expect(
      status.map { $0["state"] as? String }
        == ["applied"] + Array(repeating: "pending", count: migrationCount - 1))
    #expect(status[1]["version"] as? Int == 2)
    #expect(status[1]["name"] as? String == "incidents")
    #expect(status.dropFirst().allSatisfy { $0["applied_at"] is NSNull })

    // Other commands say the schema is behind and name the fix.
    for arguments in [
      ["list"], ["show", "crow"], ["suspect", "crow", "0.5"], ["rank"],
      ["sql", "--write", "UPDATE animals SET name = 'Cat'"],
    ] {
      let outcome = cli.run(arguments)
      expectFailure(
        outcome, status: 65,
        messageContains: "the database schema is at version 1, this inspector needs \(latest)")
      #expect(outcome.standardError.contains("inspector migrate up"), "\(arguments)")
    }

    let before = try OperationsFixture.contents(of: cli.databasePath)
    let dryRun = try jsonArray(cli.succeed("migrate", "up", "--dry-run", "--json"))
    let pending = migrations.dropFirst()
    #expect(dryRun.map { $0["version"] as? Int } == pending.map(\.version))
    #expect(dryRun.first?["version"] as? Int == 2)
    #expect(dryRun.allSatisfy { $0["state"] as? String == "pending" })
    #expect(
      cli.succeed("migrate", "up", "--dry-run")
        == pending.map { "Would apply \($0.version) \($0.name)\n" }.joined())
    #expect(cli.succeed("migrate", "up", "--to", "1") == "Up to date (schema version 1).\n")
    #expect(try OperationsFixture.contents(of: cli.databasePath) == before)

    #expect(
      cli.succeed("migrate", "up")
        == pending.map { "Applied \($0.version) \($0.name)\n" }.joined()
        + "Schema version \(latest).\n")
    let after = try jsonArray(cli.succeed("migrate", "status", "--json"))
    #expect(
      after.map { $0["state"] as? String } == Array(repeating: "applied", count: migrationCount))
    let crow = try cli.suspect("crow")
    #expect(crow["name"] as? String == "Catie")
    #expect(crow["emoji"] as? String == "🐦‍⬛")
    #expect(cli.run("check").status == 0)
  }

  @Test func newerDatabaseRefusesWrites() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("suspect", "crow", "0.25")
    cli.succeed(
      "sql", "--write",
      "INSERT INTO schema_migrations VALUES (99, 'future', 'abc', '2030-01-01T00:00:00Z')")
    let outcome = cli.run("suspect", "crow", "0.5")
    expectFailure(outcome, status: 65, messageContains: "version 99")
    #expect(outcome.standardError.contains("(\(latest))"))
    expectFailure(cli.run("migrate", "up"), status: 65, messageContains: "version 99")
    let level = try OperationsFixture.scalar(
      "SELECT level FROM suspicion_levels JOIN animals ON animals.id = animal_id"
        + " WHERE species = 'Crow'", in: cli.databasePath)
    #expect(level == .real(0.25))
  }

  @Test func twoConcurrentMigratorsNeverDoubleApply() throws {
    let inspector = try OperationsFixture.inspectorPath()
    for round in 1...4 {
      let cli = try CLITestCase()
      try OperationsFixture.makeVersionOneDatabase(at: cli.databasePath)
      let environment = ["PATH": "/usr/bin:/bin", "INSPECTOR_DB": cli.databasePath]
      let first = try ChildProcess(
        inspector, ["migrate", "up"], environment: environment, directory: cli.directory)
      let second = try ChildProcess(
        inspector, ["migrate", "up"], environment: environment, directory: cli.directory)
      let results = [try first.wait(), try second.wait()]
      for result in results {
        #expect([0, 75].contains(result.status), "round \(round): \(result.standardError)")
      }
      #expect(results.contains { $0.status == 0 }, "round \(round)")
      // Each pending migration was applied by exactly one of the two.
      for migration in migrations.dropFirst() {
        let line = "Applied \(migration.version) \(migration.name)\n"
        let appliers = results.filter { $0.standardOutput.contains(line) }
        #expect(appliers.count == 1, "round \(round): \(results.map(\.standardOutput))")
      }
      let versions = try Connection(path: cli.databasePath, mode: .readOnly).prepare(
        "SELECT version FROM schema_migrations ORDER BY version")
      var recorded: [Int64] = []
      while try versions.step() { recorded.append(versions.int64(at: 0)) }
      #expect(
        recorded == CaseDatabase.migrator.migrations.map { Int64($0.version) }, "round \(round)")
      #expect(try cli.suspect("crow")["name"] as? String == "Catie")
    }
  }

  @Test func backupRefusesTheDatabaseItselfAndAnEmptyDestination() throws {
    let cli = try CLITestCase(seeded: true)
    cli.expectRefusal(["backup", cli.databasePath], status: 73, messageContains: "itself")
    cli.expectRefusal(["backup", ""], status: 64, messageContains: "'<dest>'")
    let journalMode = try Connection(path: cli.databasePath, mode: .readOnly)
      .scalar("PRAGMA journal_mode")
    #expect(journalMode == .text("wal"))
  }
}
