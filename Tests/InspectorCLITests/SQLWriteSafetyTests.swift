import Foundation
import Testing

@testable import InspectorCLI

/// `sql --write` changes data, never the file's structure: statements that could leave a file
/// other clients cannot open are refused with one line and exit 65, and the file still opens
/// in the stock sqlite3 shell, passes `integrity_check` and holds the same data.
@Suite struct SQLWriteSafetyTests {
  /// Runs the stock sqlite3 shell on `path` with `arguments`; returns status and stdout+stderr.
  private func stockSQLite(_ path: String, _ arguments: String...) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [path] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test(arguments: [
    (
      "PRAGMA writable_schema = ON;"
        + " UPDATE sqlite_schema SET sql = 'CREATE TABLE alibis (broken' WHERE name = 'alibis'",
      "inspector: error: invalid SQL 'PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql"
        + " = 'CREATE TABLE ali...': expected no PRAGMA writable_schema = ...: it could"
        + " corrupt the database file, and --write changes data only; nothing was changed"
    ),
    (
      "UPDATE sqlite_schema SET sql = 'CREATE TABLE alibis (broken' WHERE name = 'alibis'",
      "inspector: error: table sqlite_master may not be modified"
    ),
    (
      "PRAGMA journal_mode = OFF",
      "inspector: error: invalid SQL 'PRAGMA journal_mode = OFF': expected no PRAGMA"
        + " journal_mode = ...: it could corrupt the database file, and --write changes data"
        + " only; nothing was changed"
    ),
    (
      "UPDATE alibis SET statement = 'x'; /* hidden */ PRAGMA main.SCHEMA_VERSION = 1",
      "inspector: error: invalid SQL '/* hidden */ PRAGMA main.SCHEMA_VERSION = 1': expected no"
        + " PRAGMA schema_version = ...: it could corrupt the database file, and --write changes"
        + " data only; nothing was changed"
    ),
    (
      "PRAGMA ignore_check_constraints = 1;"
        + " UPDATE suspicion_levels SET level = 7",
      "inspector: error: invalid SQL 'PRAGMA ignore_check_constraints = 1; UPDATE"
        + " suspicion_levels SET level = 7': expected no PRAGMA ignore_check_constraints = ...:"
        + " it could corrupt the database file, and --write changes data only; nothing was"
        + " changed"
    ),
  ])
  func writeRefusesWhatCouldCorruptTheFile(script: String, error: String) throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("suspect", "crow", "0.75")
    cli.succeed("alibi", "crow", "Guarding the Pink Pearl Apple tree")
    let (dumpStatus, dumpBefore) = try stockSQLite(cli.databasePath, ".dump")
    #expect(dumpStatus == 0)
    #expect(dumpBefore.contains("Guarding the Pink Pearl Apple tree"))
    let versionBefore = try stockSQLite(cli.databasePath, "PRAGMA schema_version")

    let outcome = cli.run("sql", "--write", script)
    expectFailure(outcome, status: 65)
    #expect(outcome.standardError == error + "\n")

    #expect(try stockSQLite(cli.databasePath, "PRAGMA integrity_check") == (0, "ok\n"))
    #expect(try stockSQLite(cli.databasePath, "PRAGMA journal_mode") == (0, "wal\n"))
    #expect(try stockSQLite(cli.databasePath, "PRAGMA schema_version") == versionBefore)
    #expect(try stockSQLite(cli.databasePath, ".dump") == (0, dumpBefore))
    let crow = try cli.suspect("crow")
    #expect(crow["alibi"] as? String == "Guarding the Pink Pearl Apple tree")
    #expect(number(crow["suspicion_level"]) == 0.75)
    #expect(cli.run("check").status == 0)
  }

  /// `ATTACH` is a refused statement (65), with or without `--write`, never "no database" (66):
  /// whether the named file exists, its directory does not, or it is `:memory:`, nothing is
  /// opened or created and the script's other statements are undone.
  @Test(arguments: [
    ["--write"], [],
  ])
  func attachIsRefusedWithOrWithoutWrite(mode: [String]) throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("alibi", "crow", "Guarding the Pink Pearl Apple tree")
    let existing = cli.directory.appendingPathComponent("existing.sqlite").path
    #expect(try stockSQLite(existing, "CREATE TABLE t (x); INSERT INTO t VALUES (1)") == (0, ""))
    let missingDirectory = cli.directory.appendingPathComponent("nowhere/other.sqlite").path
    let new = cli.directory.appendingPathComponent("new.sqlite").path
    let (_, dumpBefore) = try stockSQLite(cli.databasePath, ".dump")
    for target in [existing, missingDirectory, new, ":memory:"] {
      let attach = "ATTACH DATABASE '\(target)' AS other"
      // A read-only run refuses the UPDATE first, so only a write run gets a statement before.
      let script = mode.isEmpty ? attach : "UPDATE alibis SET statement = 'x'; " + attach
      let outcome = cli.run(["sql", script] + mode)
      expectFailure(outcome, status: 65)
      #expect(outcome.standardError.hasPrefix("inspector: error: invalid SQL 'ATTACH DATABASE '"))
      #expect(
        outcome.standardError.hasSuffix(
          ": expected no ATTACH or DETACH: sql may not attach another database, with or without"
            + " --write; nothing was changed\n"), "\(target) \(mode): \(outcome.standardError)")
    }
    #expect(!cli.fileExists(new))
    #expect(!cli.fileExists(cli.directory.appendingPathComponent("nowhere").path))
    #expect(try stockSQLite(cli.databasePath, ".dump") == (0, dumpBefore))
    #expect(try cli.suspect("crow")["alibi"] as? String == "Guarding the Pink Pearl Apple tree")
  }

  @Test func readingTheGuardedPragmasStillWorks() throws {
    let cli = try CLITestCase(seeded: true)
    let out = cli.succeed(
      "sql", "--write", "--format", "csv",
      "PRAGMA journal_mode; PRAGMA writable_schema; SELECT name FROM animals WHERE id = 4")
    #expect(out == "name\r\nCatie\r\n")
    #expect(
      cli.succeed("sql", "--write", "--format", "csv", "PRAGMA trusted_schema")
        == "trusted_schema\r\n0\r\n")
  }
}
