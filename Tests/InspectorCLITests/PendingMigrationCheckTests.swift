import CaseStore
import Foundation
import SQLiteKit
import Testing

/// `check` of a file with pending migrations says which checks it skipped, in every format,
/// rather than "ok" for checks that did not run; `migrate up` puts back the `application_id`
/// that a copy made with the sqlite3 shell's `.dump` loses (docs/operations.md "check",
/// "migrate").
@Suite struct PendingMigrationCheckTests {
  /// The checks a file at schema version 1 is too old for.
  static let skippedAtVersionOne = [
    "application_id", "derived_column", "duplicate", "domain", "history",
  ]

  @Test func checkOfAnOlderFileSaysWhatItSkippedInEveryFormat() throws {
    let cli = try CLITestCase()
    try OperationsFixture.makeVersionOneDatabase(at: cli.databasePath)

    let table = cli.run("check")
    #expect(table.status == 65)  // the pending migrations are faults
    let text = table.standardOutput
    #expect(text.contains("schema             ok; application_id skipped (inspector migrate up)\n"))
    #expect(text.contains("case rules         skipped (inspector migrate up)\n"))
    #expect(text.contains("history            skipped (inspector migrate up)\n"))
    #expect(!text.contains("case rules         ok"))
    #expect(!text.contains("history            ok"))

    let json = try jsonObject(cli.run("check", "--json").standardOutput)
    #expect(json["skipped"] as? [String] == Self.skippedAtVersionOne)
    let notes = (json["findings"] as? [[String: Any]] ?? []).filter {
      ($0["message"] as? String)?.hasPrefix("skipped: ") == true
    }
    #expect(
      notes.map { $0["check"] as? String } == ["application_id", "derived_column", "history"])
    #expect(notes.allSatisfy { $0["severity"] as? String == "note" })
    #expect(
      notes[1]["message"] as? String
        == "skipped: the case rules (derived columns, duplicates, domain values) need(s) schema"
        + " version 5; the file is at version 1")

    let csv = cli.run("check", "--format", "csv").standardOutput
    #expect(
      csv.contains(
        "\r\nnote,history,,,skipped: the history check need(s) schema version 14; the file is at"
          + " version 1,inspector migrate up\r\n"))

    // Once migrated, nothing is skipped and every check says ok.
    cli.succeed("migrate", "up")
    let migrated = cli.succeed("check")
    #expect(migrated.contains("case rules         ok\n"))
    #expect(migrated.contains("history            ok\n"))
    #expect(!migrated.contains("skipped"))
    #expect(try jsonObject(cli.succeed("check", "--json"))["skipped"] as? [String] == [])
  }

  /// `sqlite3 old.db .dump | sqlite3 new.db` keeps every row and the migration records but not
  /// the header's `application_id`.
  @Test func migrateUpRestoresTheApplicationIDADumpLost() throws {
    let cli = try CLITestCase(seeded: true)
    let copy = cli.directory.appendingPathComponent("reloaded.sqlite").path
    let dump = try ChildProcess(
      "/bin/sh",
      ["-c", "/usr/bin/sqlite3 \"$0\" .dump | /usr/bin/sqlite3 \"$1\"", cli.databasePath, copy],
      environment: ["PATH": "/usr/bin:/bin"], directory: cli.directory
    ).wait()
    try #require(dump.status == 0, "\(dump.standardError)")
    #expect(try OperationsFixture.scalar("PRAGMA application_id", in: copy) == .integer(0))
    #expect(
      try OperationsFixture.contents(of: copy) == OperationsFixture.contents(of: cli.databasePath))
    let check = cli.run("--db", copy, "check")
    #expect(check.status == 65)
    #expect(
      check.standardError.hasPrefix(
        "inspector: error: check found 1 fault(s); the first: application_id is 0, not"
          + " \(CaseDatabase.applicationID)"))
    #expect(check.standardOutput.contains("schema             1 fault(s)"))

    let dryRun = cli.succeed("--db", copy, "migrate", "up", "--dry-run")
    #expect(
      dryRun
        == "Up to date (schema version \(OperationsFixture.latest)).\nWould restore the"
        + " application_id \(CaseDatabase.applicationID), which a copy of the file lost"
        + " (migration 0004 is recorded).\n")
    #expect(try OperationsFixture.scalar("PRAGMA application_id", in: copy) == .integer(0))

    let up = cli.succeed("--db", copy, "migrate", "up")
    #expect(
      up.hasSuffix(
        "Restored the application_id \(CaseDatabase.applicationID), which a copy of the file lost (migration 0004 is recorded).\n"
      ))
    #expect(
      try OperationsFixture.scalar("PRAGMA application_id", in: copy)
        == .integer(Int64(CaseDatabase.applicationID)))
    #expect(cli.run("--db", copy, "check").status == 0)
    // Nothing more to do the second time.
    #expect(
      cli.succeed("--db", copy, "migrate", "up")
        == "Up to date (schema version \(OperationsFixture.latest)).\n")
  }

  /// Between schema versions 5 and 11 the case rules run, except the folded keys' check, which
  /// reads the columns migration 0012 adds: it is skipped with a note, not reported as a check
  /// that "could not check the rows".
  @Test(arguments: [6, 11])
  func theFoldedKeysCheckWaitsForMigration12(version: Int) throws {
    let cli = try CLITestCase()
    try Connection(path: cli.databasePath, mode: .readWriteCreate).execute(
      "CREATE TABLE t (x); DROP TABLE t")
    cli.succeed("migrate", "up", "--to", "\(version)")
    let outcome = cli.run("check", "--format", "csv")
    #expect(outcome.status == 65)  // the pending migrations are faults
    let rows = csvLines(outcome.standardOutput)
    #expect(!rows.contains { $0.contains("could not check") })
    #expect(
      rows.contains(
        "note,derived_column,,,skipped: the folded keys' check needs schema version 12; the file"
          + " is at version \(version),inspector migrate up"))
    cli.succeed("migrate", "up", "--to", "12")
    #expect(
      !csvLines(cli.run("check", "--format", "csv").standardOutput).contains {
        $0.contains("folded keys' check") || $0.contains("could not check")
      })
  }
}
