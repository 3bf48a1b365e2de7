import Foundation
import SQLiteKit
import Testing

@testable import CaseStore

/// `CaseFile` (check, verify a backup, restore) and `Connection.backup(toFile:)` on real files
/// (README "A short tour").
@Suite(.tags(.slow, .fileOperations), .skippedInFastSet) struct CaseFileTests {
  /// The newest schema version this binary knows.
  private let latest = CaseDatabase.migrator.latestVersion
  /// How many migrations this binary carries (versions may skip a number, reserved for
  /// another branch).
  private let migrationCount = CaseDatabase.migrator.migrations.count

  /// A private temporary directory holding a seeded case file `cases.sqlite`; removed when
  /// `body` returns or throws.
  private func withSeededDirectory<T>(_ body: (_ directory: String, _ database: String) throws -> T)
    throws -> T
  {
    try withTemporaryFile { path in
      let database = try CaseDatabase(path: path, access: .create)
      try database.write(nil) { try SeedCase.load(into: $0) }
      return try body((path as NSString).deletingLastPathComponent, path)
    }
  }

  /// Every user table's rows (sorted by their text), read through a fresh read-only connection.
  private func contents(of path: String) throws -> [String: [String]] {
    let connection = try Connection(path: path, mode: .readOnly)
    let tables = try connection.prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    var names: [String] = []
    while try tables.step() { names.append(tables.text(at: 0)) }
    var result: [String: [String]] = [:]
    for name in names {
      let statement = try connection.prepare("SELECT * FROM \"\(name)\"")
      var rows: [String] = []
      while try statement.step() { rows.append("\(statement.row())") }
      result[name] = rows.sorted()
    }
    return result
  }

  private func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  private func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try #require(attributes[.posixPermissions] as? Int)
  }

  // MARK: - Check

  @Test func checkFindsDanglingRowsAndDrift() throws {
    try withSeededDirectory { _, path in
      let healthy = try CaseFile.check(try Connection(path: path, mode: .readOnly))
      #expect(healthy.isHealthy)
      #expect(healthy.integrity == ["ok"])
      #expect(healthy.foreignKeys.isEmpty)
      #expect(healthy.migrations.map(\.state) == Array(repeating: .applied, count: migrationCount))

      let writer = try Connection(path: path)
      try writer.execute("PRAGMA foreign_keys = OFF")
      try writer.execute(
        "INSERT INTO favorite_fruits (animal_id, fruit_id, position) VALUES (999, 1, 0)")
      let dangling = try CaseFile.check(try Connection(path: path, mode: .readOnly))
      #expect(!dangling.isHealthy)
      #expect(dangling.integrity == ["ok"])
      #expect(dangling.foreignKeys.map(\.table) == ["favorite_fruits"])
      #expect(dangling.foreignKeys.map(\.parent) == ["animals"])

      try writer.execute("DELETE FROM favorite_fruits WHERE animal_id = 999")
      try writer.execute("UPDATE schema_migrations SET checksum = 'x' WHERE version = 1")
      let drifted = try CaseFile.check(try Connection(path: path, mode: .readOnly))
      #expect(!drifted.isHealthy)
      #expect(drifted.foreignKeys.isEmpty)
      #expect(
        drifted.migrations.map(\.state)
          == [.drift] + Array(repeating: .applied, count: migrationCount - 1))
    }
  }

  /// A table's page that no longer reads as a b-tree page: `PRAGMA integrity_check` reports the
  /// page, then stops with SQLITE_CORRUPT. `check` lists what it reported and that it stopped,
  /// as faults, where it used to throw and list nothing (the sqlite3 shell prints the line).
  @Test func aDamagedPageIsListedNotThrown() throws {
    try withSeededDirectory { _, path in
      let root: Int64
      do {
        let writer = try Connection(path: path)
        // Every page in the main file, where the damage goes.
        try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        root = try #require(
          try writer.scalar("SELECT rootpage FROM sqlite_schema WHERE name = 'favorite_fruits'")?
            .integerValue)
      }
      let file = try #require(FileHandle(forUpdatingAtPath: path))
      // The page's first byte is its type; 7 is none of SQLite's four.
      try file.seek(toOffset: UInt64(root - 1) * 4096)
      try file.write(contentsOf: [7])
      try file.close()

      let report = try CaseFile.check(at: path)
      #expect(!report.isHealthy)
      #expect(
        report.integrity == [
          "*** in database main ***\nPage \(root): btreeInitPage() returns error code 11",
          "integrity_check stopped: database disk image is malformed",
        ])
      #expect(
        report.findings.filter { $0.kind == .integrity }.map(\.message) == report.integrity)
      // The checks that read the damaged table say so in SQLite's words, without its SQL.
      #expect(
        report.findings.filter { $0.kind == .history }.map(\.message) == [
          "the history cannot be replayed: database disk image is malformed"
        ])
    }
  }

  // MARK: - Backup to a file

  @Test func backupToFileIsPrivateSelfContainedAndEqual() throws {
    try withSeededDirectory { directory, path in
      // A change still in the source's WAL must be in the copy.
      let source = try Connection(path: path)
      try source.execute(
        """
        INSERT INTO suspicion_levels (animal_id, level)
        SELECT id, 0.9 FROM animals WHERE species = 'Crow'
        """)
      let destination = directory + "/backup.sqlite"
      try source.backup(toFile: destination)
      #expect(try mode(destination) == 0o600)
      let header = try #require(bytes(destination))
      #expect(Array(header.prefix(16)) == Array("SQLite format 3\u{0}".utf8))
      #expect(header[18] == 1 && header[19] == 1)  // rollback journal, not WAL
      #expect(!FileManager.default.fileExists(atPath: destination + "-wal"))
      #expect(try CaseFile.verifyBackup(at: destination) == latest)
      #expect(try contents(of: destination) == contents(of: path))
      #expect(
        try contents(of: destination)["suspicion_levels"]?.contains { $0.contains("0.9") } == true)
      let names = try FileManager.default.contentsOfDirectory(atPath: directory)
      #expect(!names.contains { $0.contains(".tmp-") })
    }
  }

  @Test func backupIntoMissingDirectoryLeavesNothing() throws {
    try withSeededDirectory { directory, path in
      let source = try Connection(path: path, mode: .readOnly)
      let destination = directory + "/missing/backup.sqlite"
      #expect(
        throws: FileOperationError(path: destination, operation: "create", code: ENOENT)
      ) {
        try source.backup(toFile: destination)
      }
      #expect(!FileManager.default.fileExists(atPath: directory + "/missing"))
      let names = try FileManager.default.contentsOfDirectory(atPath: directory)
      #expect(!names.contains { $0.contains("backup") })
    }
  }

  // MARK: - Verify and restore

  @Test func verifyBackupRefusesWhatIsNotASoundBackup() throws {
    try withSeededDirectory { directory, path in
      let backup = directory + "/backup.sqlite"
      try Connection(path: path, mode: .readOnly).backup(toFile: backup)
      #expect(try CaseFile.verifyBackup(at: backup) == latest)

      #expect(throws: CaseFileError.missing(directory + "/nope.sqlite")) {
        try CaseFile.verifyBackup(at: directory + "/nope.sqlite")
      }
      let text = directory + "/notes.txt"
      try Data("Fabrizio was at the pond.\n".utf8).write(to: URL(fileURLWithPath: text))
      #expect(throws: CaseFileError.notADatabase(text)) { try CaseFile.verifyBackup(at: text) }
      let empty = directory + "/empty.sqlite"
      try Data().write(to: URL(fileURLWithPath: empty))
      #expect(throws: CaseFileError.notADatabase(empty)) { try CaseFile.verifyBackup(at: empty) }

      let full = try #require(bytes(backup))
      let truncated = directory + "/truncated.sqlite"
      try full.prefix(full.count / 2).write(to: URL(fileURLWithPath: truncated))
      let damaged = try #require(throws: CaseFileError.self) {
        try CaseFile.verifyBackup(at: truncated)
      }
      guard case .damaged(truncated, _) = damaged else {
        Issue.record("expected .damaged, got \(damaged)")
        return
      }

      let dangling = directory + "/dangling.sqlite"
      try Connection(path: path, mode: .readOnly).backup(toFile: dangling)
      let editor = try Connection(path: dangling, walMode: false)
      try editor.execute("PRAGMA foreign_keys = OFF")
      try editor.execute(
        "INSERT INTO favorite_fruits (animal_id, fruit_id, position) VALUES (999, 1, 0)")
      #expect(throws: CaseFileError.self) { try CaseFile.verifyBackup(at: dangling) }

      let newer = directory + "/newer.sqlite"
      try Connection(path: path, mode: .readOnly).backup(toFile: newer)
      try Connection(path: newer, walMode: false).execute(
        "INSERT INTO schema_migrations VALUES (99, 'future', 'abc', '2030-01-01T00:00:00Z')")
      #expect(throws: MigrationError.newerSchema(databaseVersion: 99, knownVersion: latest)) {
        try CaseFile.verifyBackup(at: newer)
      }
    }
  }

  @Test func restoreRefusalsLeaveTheDatabaseByteIdentical() throws {
    try withSeededDirectory { directory, path in
      let backup = directory + "/backup.sqlite"
      try Connection(path: path, mode: .readOnly).backup(toFile: backup)
      let before = try #require(bytes(path))
      let walBefore = bytes(path + "-wal")

      #expect(
        throws: CaseFileError.holdsCaseData(
          path,
          rows: [
            "animals": 10, "fruits": 19, "favorite_fruits": 27, "incidents": 1,
            "history_change_sets": 1,
          ])
      ) {
        try CaseFile.restore(from: backup, to: path, force: false)
      }
      #expect(throws: CaseFileError.missing(directory + "/nope.sqlite")) {
        try CaseFile.restore(from: directory + "/nope.sqlite", to: path, force: true)
      }
      let text = directory + "/notes.txt"
      try Data("not a database".utf8).write(to: URL(fileURLWithPath: text))
      #expect(throws: CaseFileError.notADatabase(text)) {
        try CaseFile.restore(from: text, to: path, force: true)
      }
      #expect(bytes(path) == before)
      #expect(bytes(path + "-wal") == walBefore)
    }
  }

  @Test func forcedRestoreReplacesAndMissingDestinationIsCreatedPrivate() throws {
    try withSeededDirectory { directory, path in
      let backup = directory + "/backup.sqlite"
      try Connection(path: path, mode: .readOnly).backup(toFile: backup)
      let expected = try contents(of: backup)
      let writer = try Connection(path: path)
      try writer.execute("INSERT INTO fruits (name, color) VALUES ('Kiwi', 'green')")
      try writer.execute("DELETE FROM animals WHERE species = 'Crow'")
      #expect(try contents(of: path) != expected)

      let summary = try CaseFile.restore(from: backup, to: path, force: true)
      #expect(
        summary == CaseFile.RestoreSummary(schemaVersion: latest, suspects: 10, created: false))
      #expect(try contents(of: path) == expected)
      #expect(try writer.scalar("SELECT count(*) FROM fruits") == .integer(19))

      let fresh = directory + "/fresh.sqlite"
      let created = try CaseFile.restore(from: backup, to: fresh, force: false)
      #expect(
        created == CaseFile.RestoreSummary(schemaVersion: latest, suspects: 10, created: true))
      #expect(try mode(fresh) == 0o600)
      #expect(try contents(of: fresh) == expected)
    }
  }

  /// `restore` checkpoints as SQLite's automatic checkpoints do (`PASSIVE`): with another
  /// connection open, as Litestream's always is, the restored frames stay in the `-wal` for it
  /// to read (a `TRUNCATE` checkpoint emptied it), and a reader in the middle of a read
  /// transaction, as Litestream's is, does not hold the restore up for the busy timeout
  /// (docs/operations.md "Checkpoints").
  @Test func restoreNeitherTruncatesTheWALNorWaitsForReaders() throws {
    try withSeededDirectory { directory, path in
      let backup = directory + "/backup.sqlite"
      try Connection(path: path, mode: .readOnly).backup(toFile: backup)
      let pages = try Connection(path: backup, mode: .readOnly).scalar("PRAGMA page_count")
      let idle = try Connection(path: path)
      #expect(try CaseFile.restore(from: backup, to: path, force: true).suspects == 10)
      let wal = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
      #expect((wal ?? 0) > 0, "the restore emptied the WAL under another connection")
      #expect(try idle.scalar("PRAGMA page_count") == pages)

      let reader = try Connection(path: path, mode: .readOnly)
      try reader.execute("BEGIN")
      #expect(try reader.scalar("SELECT count(*) FROM animals") == .integer(10))
      let clock = ContinuousClock()
      let started = clock.now
      let restored = try CaseFile.restore(from: backup, to: path, force: true, busyTimeout: 10_000)
      #expect(restored.suspects == 10)
      #expect(clock.now - started < .seconds(5), "the restore waited for the reader")
      try reader.execute("COMMIT")
      #expect(try reader.scalar("SELECT count(*) FROM fruits") == .integer(19))
    }
  }

  /// docs/operations.md "Checkpoints" names every checkpoint `inspector` runs and its mode; the
  /// sources above SQLiteKit hold exactly those two (a third, or another mode, needs the docs,
  /// and Litestream's users, told).
  @Test func theCheckpointsAreTheOnesTheDocsName() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    var found: [String] = []
    for target in ["CaseStore", "CommandLineKit", "InspectorCLI", "inspector"] {
      let directory = root.appendingPathComponent("Sources/" + target)
      let files = try #require(FileManager.default.enumerator(atPath: directory.path))
        .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
      for file in files {
        let text = try String(
          contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
        for line in text.split(separator: "\n") {
          let code = line.trimmingCharacters(in: .whitespaces)
          guard !code.hasPrefix("//"), code.contains(try Regex(#"checkpoint\(|wal_checkpoint"#))
          else { continue }
          found.append("\(file): \(code)")
        }
      }
    }
    #expect(
      found == [
        "Operations/CaseDatabase+Optimize.swift:"
          + " let checkpoint = try connection.prepare(\"PRAGMA wal_checkpoint(TRUNCATE)\")",
        "Operations/CaseFile.swift: try? target.checkpoint(.passive)",
      ])
    let docs = try String(
      contentsOf: root.appendingPathComponent("docs/operations.md"), encoding: .utf8)
    #expect(docs.contains("| `restore` | `PASSIVE`, after the copy |"))
    #expect(docs.contains("| `optimize --vacuum` | `TRUNCATE`, after `VACUUM` |"))
    #expect(docs.contains("No other command checkpoints"))
  }

  /// Lines of `integrity_check` that name a row against a constraint of its table are case
  /// faults a restore may accept; every other line is damage to the file.
  @Test(arguments: [
    ("CHECK constraint failed in animals", true),
    ("NULL value in animals.name", true),
    ("non-INTEGER value in animals.id", true),
    ("non-unique entry in index animals_name_key", false),
    ("row 10 missing from index animals_paw_size", false),
    ("wrong # of entries in index animals_paw_size", false),
    ("*** in database main ***\nPage 23: btreeInitPage() returns error code 11", false),
  ])
  func integrityLinesAboutRowsAreToldFromDamage(line: String, aboutARow: Bool) {
    #expect(CaseFile.isRowConstraintMessage(line) == aboutARow)
  }

  /// The verdict a restore and a backup share: a sound seeded case restores as it is; one with
  /// a dropped trigger and a row against a CHECK (written with the checks off) is a case file
  /// whose faults may be accepted, listed in `check`'s order.
  @Test func restorabilityListsTheFaultsARestoreMayAccept() throws {
    try withSeededDirectory { directory, path in
      let backup = directory + "/backup.sqlite"
      try Connection(path: path, mode: .readOnly).backup(toFile: backup)
      #expect(
        try CaseFile.restorability(at: backup) == .init(schemaVersion: latest, faults: []))
      let editor = try Connection(path: backup, walMode: false)
      try editor.execute(
        """
        PRAGMA ignore_check_constraints = ON;
        UPDATE animals SET paw_size = 'huge' WHERE id = 2;
        DROP TRIGGER animals_level_before_update;
        """)
      for structure in [CaseFile.BackupVerification.quick, .full] {
        let verdict = try CaseFile.restorability(at: backup, structure: structure)
        #expect(
          verdict.faults.map { "\($0.kind.rawValue) \($0.message)" } == [
            "integrity_check CHECK constraint failed in animals",
            "schema trigger animals_level_before_update is missing",
            "domain paw_size 'huge' is not small, medium or large",
          ])
        #expect(!verdict.restoresAsItIs)
      }
      #expect(throws: CaseFileError.self) { try CaseFile.verifyBackup(at: backup) }
    }
  }
}
