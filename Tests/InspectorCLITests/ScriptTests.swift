import CaseStore
import Foundation
import SQLiteKit
import Testing

@testable import InspectorCLI

/// `scripts/backup.sh` and `scripts/migrate.sh` (README "Operations"), run through `bash` with
/// `INSPECTOR` pointing at the built binary.
@Suite struct ScriptTests {
  /// The package root: three levels up from this file (Tests/InspectorCLITests/ScriptTests.swift).
  static let scripts = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts")

  /// Runs `scripts/name arguments` to completion.
  private func script(_ name: String, _ arguments: String..., in cli: CLITestCase) throws
    -> ChildProcess.Result
  {
    let environment = [
      "PATH": "/usr/bin:/bin", "INSPECTOR": try OperationsFixture.inspectorPath(),
      "HOME": cli.directory.path, "LC_ALL": "C",
    ]
    return try ChildProcess(
      "/bin/bash", [Self.scripts.appendingPathComponent(name).path] + arguments,
      environment: environment, directory: cli.directory
    ).wait()
  }

  /// The paths a script reported on lines starting with `prefix`.
  private func reported(_ prefix: String, in output: String) -> [String] {
    lines(output).filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
  }

  // MARK: - backup.sh

  @Test func backupRotationKeepsExactlyTheNewestKeep() throws {
    let cli = try CLITestCase(seeded: true)
    let directory = cli.directory.appendingPathComponent("backups")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    // Older backups of this database, and backups of two other databases (`other.sqlite`,
    // `cases-archive.sqlite`) that must stay.
    for second in 1...4 {
      let old = directory.appendingPathComponent("cases-20200101T00000\(second)Z.sqlite")
      try Data("old".utf8).write(to: old)
    }
    let others = ["other-20200101T000001Z.sqlite", "cases-archive-20200101T000001Z.sqlite"]
      .map { directory.appendingPathComponent($0) }
    for other in others { try Data("other".utf8).write(to: other) }

    var created: [String] = []
    for run in 1...5 {
      let result = try script("backup.sh", cli.databasePath, directory.path, "3", in: cli)
      #expect(result.status == 0, "run \(run): \(result.standardError)")
      let paths = reported("backup: ", in: result.standardOutput)
      #expect(paths.count == 1, "run \(run): \(result.standardOutput)")
      created += paths
      let made = try #require(paths.first)
      // Rotation must never remove the backup it has just made.
      #expect(cli.fileExists(made), "run \(run) removed its own new backup \(made)")
      if cli.fileExists(made) {
        #expect(
          try OperationsFixture.contents(of: made)
            == OperationsFixture.contents(of: cli.databasePath))
      }
    }
    #expect(Set(created).count == 5)
    let kept = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasPrefix("cases-") && !$0.hasPrefix("cases-archive-") }.map {
        directory.appendingPathComponent($0).path
      }
    #expect(kept.count == 3)
    // The three newest are the last three this test made, whatever second they fell in.
    #expect(Set(kept) == Set(created.suffix(3)), "kept \(kept.sorted()), made \(created)")
    for other in others { #expect(FileManager.default.fileExists(atPath: other.path)) }
    for path in kept {
      #expect(try OperationsFixture.mode(path) == 0o600)
      let check = cli.run("--db", path, "check")
      #expect(check.status == 0, "\(path): \(check.standardError)")
    }
  }

  /// A fault check finds in the new backup is the live database's too (here a Greek species
  /// written twice by another client): the backup is kept, as the newest copy there is, nothing
  /// older is rotated away, and the run fails with 65.
  @Test func aBackupWithCheckFaultsIsKeptAndNothingIsRotated() throws {
    let cli = try CLITestCase(seeded: true)
    let writer = try Connection(path: cli.databasePath)
    try writer.execute(
      """
      INSERT INTO animals (name, species, paw_size) VALUES ('Big', 'ΑΛΕΠΟΥ', 'small');
      INSERT INTO animals (name, species, paw_size) VALUES ('Small', 'αλεπου', 'small');
      """)
    let directory = cli.directory.appendingPathComponent("backups")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    let old = directory.appendingPathComponent("cases-20200101T000001Z.sqlite")
    try Data("old".utf8).write(to: old)
    let result = try script("backup.sh", cli.databasePath, directory.path, "1", in: cli)
    #expect(result.status == 65)
    #expect(result.standardError.contains("kept it and removed no older backup"))
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(files.count == 2)
    #expect(FileManager.default.fileExists(atPath: old.path))
    let made = directory.appendingPathComponent(try #require(files.last)).path
    #expect(
      try OperationsFixture.contents(of: made) == OperationsFixture.contents(of: cli.databasePath))
  }

  /// Two runs started together (in the same second) once wrote one file name and both
  /// reported success: one backup silently lost. Each must claim its own name.
  @Test func concurrentBackupsGetDistinctCompleteFiles() throws {
    let cli = try CLITestCase(seeded: true)
    let directory = cli.directory.appendingPathComponent("backups").path
    let environment = [
      "PATH": "/usr/bin:/bin", "INSPECTOR": try OperationsFixture.inspectorPath(),
      "HOME": cli.directory.path, "LC_ALL": "C",
    ]
    let script = Self.scripts.appendingPathComponent("backup.sh").path
    let runs = try (1...2).map { _ in
      try ChildProcess(
        "/bin/bash", [script, cli.databasePath, directory], environment: environment,
        directory: cli.directory)
    }
    let results = try runs.map { try $0.wait() }
    for result in results { #expect(result.status == 0, "\(result.standardError)") }
    let made = results.flatMap { reported("backup: ", in: $0.standardOutput) }
    #expect(made.count == 2)
    #expect(Set(made).count == 2, "both runs reported \(made)")
    let files = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasSuffix(".sqlite") }
    #expect(files.count == 2, "\(files)")
    let expected = try OperationsFixture.contents(of: cli.databasePath)
    for path in Set(made) {
      #expect(try OperationsFixture.contents(of: path) == expected)
      #expect(try OperationsFixture.mode(path) == 0o600)
      #expect(
        try OperationsFixture.scalar("SELECT emoji FROM animals WHERE name = 'Rénard'", in: path)
          == .text("🦝"))
    }
  }

  @Test(arguments: ["0", "-1", "three", "2.5", "07x"])
  func backupRefusesABadKeep(keep: String) throws {
    let cli = try CLITestCase(seeded: true)
    let directory = cli.directory.appendingPathComponent("backups").path
    let result = try script("backup.sh", cli.databasePath, directory, keep, in: cli)
    #expect(result.status == 64)
    #expect(result.standardError.contains("KEEP"))
    #expect(!cli.fileExists(directory))
  }

  @Test func backupOfAMissingDatabaseExits66() throws {
    let cli = try CLITestCase()
    let directory = cli.directory.appendingPathComponent("backups").path
    let result = try script("backup.sh", cli.databasePath, directory, in: cli)
    #expect(result.status == 66)
    #expect(result.standardError.contains("no database at \(cli.databasePath)"))
    #expect(!cli.fileExists(directory))
    #expect(!cli.fileExists(cli.databasePath))
  }

  // MARK: - migrate.sh

  @Test func migrateOnAnUpToDateDatabase() throws {
    let cli = try CLITestCase(seeded: true)
    let before = try OperationsFixture.contents(of: cli.databasePath)
    let result = try script("migrate.sh", cli.databasePath, in: cli)
    #expect(result.status == 0, "\(result.standardError)")
    // Nothing to do: no backup is made, and the database is untouched.
    #expect(result.standardOutput == "up to date: \(cli.databasePath)\n")
    #expect(reported("backup: ", in: result.standardOutput).isEmpty)
    let siblings = try FileManager.default.contentsOfDirectory(atPath: cli.directory.path)
    #expect(!siblings.contains { $0.contains("pre-migrate") }, "\(siblings)")
    #expect(try OperationsFixture.contents(of: cli.databasePath) == before)
  }

  @Test func migrateUpgradesAVersionOneDatabase() throws {
    let cli = try CLITestCase()
    try OperationsFixture.makeVersionOneDatabase(at: cli.databasePath)
    let result = try script("migrate.sh", cli.databasePath, in: cli)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("Applied 2 incidents"))
    #expect(
      try OperationsFixture.scalar(
        "SELECT max(version) FROM schema_migrations", in: cli.databasePath)
        == .integer(Int64(OperationsFixture.latest)))
    #expect(try cli.suspect("crow")["name"] as? String == "Catie")
  }

  @Test func failedMigrationRestoresThePreMigrationState() throws {
    let cli = try CLITestCase()
    try OperationsFixture.makeVersionOneDatabase(at: cli.databasePath)
    // A table in the way of migration 2's CREATE TABLE incidents.
    let connection = try Connection(path: cli.databasePath)
    try connection.execute("CREATE TABLE incidents (note TEXT); INSERT INTO incidents VALUES ('x')")
    let before = try OperationsFixture.contents(of: cli.databasePath)

    let result = try script("migrate.sh", cli.databasePath, in: cli)
    #expect(result.status != 0)
    #expect(result.standardError.contains("migration 2 (incidents) failed"))
    #expect(result.standardError.contains("restored the database from"))
    let backup = try #require(reported("backup: ", in: result.standardOutput).first)
    #expect(cli.fileExists(backup))
    #expect(try OperationsFixture.mode(backup) == 0o600)
    #expect(try OperationsFixture.contents(of: cli.databasePath) == before)
    #expect(
      try OperationsFixture.scalar(
        "SELECT max(version) FROM schema_migrations", in: cli.databasePath)
        == .integer(1))
    #expect(
      try OperationsFixture.scalar(
        "SELECT name FROM animals WHERE species = 'Crow'", in: cli.databasePath)
        == .text("Catie"))
  }
}
