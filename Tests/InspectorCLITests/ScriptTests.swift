import CaseStore
import Foundation
import SQLiteKit
import Testing

@testable import InspectorCLI

/// `scripts/backup.sh` and `scripts/migrate.sh` (README "Operations"), run through `bash` with
/// `INSPECTOR` pointing at the built binary.
@Suite(.tags(.slow, .processes), .skippedInFastSet) struct ScriptTests {
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

  /// Runs `backup.sh` on the case database into `directory` keeping `keep`, expects it to
  /// succeed, and returns the path of the backup it reported.
  private func backUp(_ cli: CLITestCase, to directory: URL, keep: String) throws -> String {
    let result = try script("backup.sh", cli.databasePath, directory.path, keep, in: cli)
    #expect(result.status == 0, "\(result.standardError)")
    return try #require(reported("backup: ", in: result.standardOutput).first)
  }

  /// The files in `directory` whose names start with `cases-` (not the hidden manifest, not
  /// `cases-archive`'s backups).
  private func files(in directory: URL) throws -> Set<String> {
    Set(
      try FileManager.default.contentsOfDirectory(atPath: directory.path)
        .filter { $0.hasPrefix("cases-") && !$0.hasPrefix("cases-archive-") }
        .map { directory.appendingPathComponent($0).path })
  }

  /// Rotation keeps the newest KEEP backups the script made, in the order it made them, and
  /// removes exactly the older ones it made; files with the same name pattern that it did not
  /// make (once removed as if they were its own) and other databases' backups stay.
  @Test func backupRotationKeepsExactlyTheNewestKeep() throws {
    let cli = try CLITestCase(seeded: true)
    let directory = cli.directory.appendingPathComponent("backups")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    // Files named like older backups of this database, and backups of two other databases
    // (`other.sqlite`, `cases-archive.sqlite`): none was made by the script.
    var strangers: [URL] = []
    for second in 1...4 {
      strangers.append(directory.appendingPathComponent("cases-20200101T00000\(second)Z.sqlite"))
    }
    strangers += ["other-20200101T000001Z.sqlite", "cases-archive-20200101T000001Z.sqlite"]
      .map { directory.appendingPathComponent($0) }
    for stranger in strangers { try Data("not a backup".utf8).write(to: stranger) }

    var created: [String] = []
    var removed: [String] = []
    for run in 1...5 {
      let result = try script("backup.sh", cli.databasePath, directory.path, "3", in: cli)
      #expect(result.status == 0, "run \(run): \(result.standardError)")
      let paths = reported("backup: ", in: result.standardOutput)
      #expect(paths.count == 1, "run \(run): \(result.standardOutput)")
      created += paths
      removed += reported("removed: ", in: result.standardOutput)
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
    #expect(removed == Array(created.prefix(2)))
    for stranger in strangers {
      #expect(OperationsFixture.bytes(stranger.path) == Data("not a backup".utf8))
    }
    let kept = try files(in: directory).subtracting(strangers.map(\.path))
    #expect(kept == Set(created.suffix(3)), "kept \(kept.sorted()), made \(created)")
    for path in kept {
      #expect(try OperationsFixture.mode(path) == 0o600)
      let check = cli.run("--db", path, "check")
      #expect(check.status == 0, "\(path): \(check.standardError)")
    }
  }

  /// A file whose name sorts after the new backup's (a skewed clock's date, or a copy of a
  /// backup under a later name) once made `backup.sh DB DIR 1` delete the backup it had just
  /// made. Order is the order the script made its backups, and it removes only its own.
  @Test func aLaterSortingFileNeverGetsTheNewBackupRemoved() throws {
    let cli = try CLITestCase(seeded: true)
    let directory = cli.directory.appendingPathComponent("backups")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    // A real case-file copy under a later name, and a file with a far-future date.
    let copy = directory.appendingPathComponent("cases-20991231T235959Z.sqlite").path
    cli.succeed("backup", copy)
    let copyBytes = OperationsFixture.bytes(copy)
    let future = directory.appendingPathComponent("cases-20990101T000000Z.sqlite")
    try Data("from a skewed clock".utf8).write(to: future)
    var made: [String] = []
    for run in 1...2 {
      let result = try script("backup.sh", cli.databasePath, directory.path, "1", in: cli)
      #expect(result.status == 0, "run \(run): \(result.standardError)")
      let path = try #require(reported("backup: ", in: result.standardOutput).first)
      made.append(path)
      #expect(cli.fileExists(path), "run \(run) removed its own new backup")
      #expect(
        try OperationsFixture.contents(of: path)
          == OperationsFixture.contents(of: cli.databasePath))
      #expect(reported("removed: ", in: result.standardOutput) == Array(made.dropLast()))
    }
    #expect(!cli.fileExists(made[0]))
    #expect(OperationsFixture.bytes(copy) == copyBytes)
    #expect(OperationsFixture.bytes(future.path) == Data("from a skewed clock".utf8))
    #expect(try files(in: directory) == [copy, future.path, made[1]])
  }

  /// A backup the script made but whose bytes changed since (another tool wrote to it, or a
  /// file was put in its place) is not the script's any more: it is left, with a warning.
  @Test func aBackupChangedSinceItWasMadeIsNotRemoved() throws {
    let cli = try CLITestCase(seeded: true)
    let directory = cli.directory.appendingPathComponent("backups")
    let old = try backUp(cli, to: directory, keep: "1")
    try Connection(path: old).execute("INSERT INTO alibis (animal_id, statement) VALUES (1, 'x')")
    let changed = OperationsFixture.bytes(old)
    let second = try script("backup.sh", cli.databasePath, directory.path, "1", in: cli)
    #expect(second.status == 0, "\(second.standardError)")
    #expect(reported("removed: ", in: second.standardOutput) == [])
    #expect(second.standardError.contains("left \(old): it changed since this script made it"))
    #expect(OperationsFixture.bytes(old) == changed)
    let new = try #require(reported("backup: ", in: second.standardOutput).first)
    #expect(try files(in: directory) == [old, new])
  }

  /// A fault that persists in the live database (here a Greek species written twice by
  /// another client) once kept every backup and rotated nothing, run after run, until the disk
  /// filled. Each faulted backup is kept apart in faulted/, those rotate among themselves
  /// (KEEP at most), no good backup is touched, and every run fails with 65.
  @Test func aPersistentFaultKeepsRotatingApartAndFailsLoudly() throws {
    let cli = try CLITestCase(seeded: true)
    let directory = cli.directory.appendingPathComponent("backups")
    let good = try backUp(cli, to: directory, keep: "2")
    let goodBytes = OperationsFixture.bytes(good)
    let writer = try Connection(path: cli.databasePath)
    try writer.execute(
      """
      INSERT INTO animals (name, species, paw_size) VALUES ('Big', 'ΑΛΕΠΟΥ', 'small');
      INSERT INTO animals (name, species, paw_size) VALUES ('Small', 'αλεπου', 'small');
      """)
    let faulted = directory.appendingPathComponent("faulted")
    var made: [String] = []
    for run in 1...4 {
      let result = try script("backup.sh", cli.databasePath, directory.path, "2", in: cli)
      #expect(result.status == 65, "run \(run): \(result.standardError)")
      #expect(result.standardError.contains("has faults"), "\(result.standardError)")
      #expect(result.standardError.contains("removed no good backup"))
      let path = try #require(reported("backup: ", in: result.standardOutput).first)
      #expect(path.hasPrefix(faulted.path + "/"), "\(path)")
      // inspector's messages name the copy where it is now, not where it was made.
      #expect(
        result.standardError.contains("'inspector restore \(path) --accept-faults'"),
        "\(result.standardError)")
      let madeAt = directory.path + "/" + String(path.split(separator: "/").last!)
      #expect(!result.standardError.contains(madeAt), "\(result.standardError)")
      made.append(path)
      #expect(
        try OperationsFixture.contents(of: path)
          == OperationsFixture.contents(of: cli.databasePath))
      #expect(
        reported("removed: ", in: result.standardOutput)
          == (run > 2 ? [made[run - 3]] : []), "run \(run)")
    }
    #expect(try files(in: faulted) == Set(made.suffix(2)))
    #expect(try files(in: directory) == [good])
    #expect(OperationsFixture.bytes(good) == goodBytes)
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
