import Foundation
import SQLiteKit
import Testing

@testable import InspectorCLI

/// Read commands write nothing, ever (README "Guarantees"): on a case file the stock `sqlite3`
/// shell has just written Unicode names into (keys nobody vouches for, records queued for the
/// search index), `list`, `rank`, `show`, `search`, `history`, `blame`, `export` and `check` leave the
/// database file and its `-wal` byte for byte as they were, and still answer right.
@Suite("Reads never write")
struct ReadsNeverWriteTests {
  /// What the shell writes: Greek capitals (SQL's `lower()` folds none of them), a decomposed
  /// accent (`E` + U+0301), an alibi and a fruit.
  static let shellWrites = """
    INSERT INTO animals (id, name, species, paw_size) VALUES (11, 'ΑΛΕΞ', 'ΛΥΚΟΣ', 'small');
    INSERT INTO animals (id, name, species, paw_size)
      VALUES (12, 'Rene\u{301}e', 'E\u{301}CUREUIL', 'medium');
    INSERT INTO alibis (animal_id, statement) VALUES (11, 'Στο ΔΑΣΟΣ all night');
    INSERT INTO fruits (name, color) VALUES ('ΣΥΚΟ', 'purple');
    INSERT INTO investigator_tokens VALUES ('ΑΝΝΑ', randomblob(32), '2026-01-01T00:00:00.000Z');
    """

  /// Each read command with what its output must hold.
  static let reads: [(arguments: [String], expected: String)] = [
    (["list"], "ΑΛΕΞ"),
    (["list", "--species", "λυκος"], "ΑΛΕΞ"),
    (["list", "--sort", "name"], "Rene\u{301}e"),
    (["rank", "--all"], "ΑΛΕΞ"),
    (["show", "αλεξ"], "ΛΥΚΟΣ"),
    (["show", "\u{E9}cureuil"], "Rene\u{301}e"),
    (["show", "renee"], "E\u{301}CUREUIL"),
    (["search", "λυκος"], "ΑΛΕΞ the ΛΥΚΟΣ"),
    (["search", "δασος"], "[ΔΑΣΟΣ]"),
    (["history"], "ΑΛΕΞ"),
    (["history", "αλεξ"], "Στο ΔΑΣΟΣ all night"),
    (["blame", "αλεξ"], "Στο ΔΑΣΟΣ all night"),
    (["export"], "\"ΣΥΚΟ\""),
    (["fruit", "list"], "ΣΥΚΟ"),
    (["serve", "token", "list"], "ΑΝΝΑ"),
    (["check"], "written by another client"),
    // The shell's change sets stay unsealed: only a writing command seals.
    (["history", "--verify"], "newer change set(s) not sealed yet"),
    (["history", "--head"], "change set 1: "),
  ]

  /// The bytes of `path`, or `nil` when there is no such file.
  private func bytes(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
  }

  /// Runs every read and expects its output and exit 0.
  private func runReads(_ cli: CLITestCase) {
    for (arguments, expected) in Self.reads {
      let outcome = cli.run(arguments)
      #expect(outcome.status == 0, "\(arguments): \(outcome.standardError)")
      #expect(
        outcome.standardOutput.contains(expected), "\(arguments): \(outcome.standardOutput)")
    }
  }

  /// Runs `shellWrites` in the stock `sqlite3` shell (another client) on the case database.
  private func runShellWrites(_ cli: CLITestCase) throws {
    let shell = try ChildProcess(
      "/usr/bin/sqlite3", [cli.databasePath, Self.shellWrites],
      environment: ["PATH": "/usr/bin:/bin"], directory: cli.directory
    ).wait()
    try #require(shell.status == 0, "\(shell.standardError)")
  }

  /// The shell's write, then every read: the file is unchanged. SQLite itself creates an empty
  /// `-wal` (and `-shm`) when a read-only connection opens a WAL database in a directory it may
  /// write (https://sqlite.org/wal.html#readonly) and may not delete it again, so "no `-wal`"
  /// before means no `-wal` or an empty one after: not one frame.
  @Test func readCommandsLeaveAFileTheShellJustWroteUnchanged() throws {
    let cli = try CLITestCase(seeded: true)
    try runShellWrites(cli)
    let wal = cli.databasePath + "-wal"
    try #require(!cli.fileExists(wal))
    let database = try #require(bytes(cli.databasePath))
    runReads(cli)
    #expect(bytes(cli.databasePath) == database)
    #expect((bytes(wal) ?? Data()).isEmpty)
  }

  /// The same with the shell's changes still in the `-wal` (a reader kept the shell from
  /// checkpointing on exit): the database file and the `-wal` are byte-identical afterwards.
  @Test func readCommandsLeaveTheWALTheShellJustWroteUnchanged() throws {
    let cli = try CLITestCase(seeded: true)
    let reader = try Connection(path: cli.databasePath, mode: .readOnly)
    #expect(try reader.scalar("SELECT count(*) FROM animals")?.integerValue == 10)
    try runShellWrites(cli)
    let wal = cli.databasePath + "-wal"
    let before = try #require(bytes(wal))
    try #require(!before.isEmpty)
    let database = try #require(bytes(cli.databasePath))
    runReads(cli)
    #expect(bytes(cli.databasePath) == database)
    #expect(bytes(wal) == before)
    #expect(try reader.scalar("SELECT count(*) FROM search_queue")?.integerValue ?? 0 > 0)
  }

  /// Read-only search finds what other clients changed and forgets what they removed, with
  /// the index as it stands: the changed records are searched by their current text.
  @Test func searchFindsWhatOtherClientsChangedWithoutIndexingIt() throws {
    let cli = try CLITestCase(seeded: true)
    // Fabrizio's alibi is indexed; a later change by another client is queued only.
    cli.succeed("alibi", "fish", "In the weather vane")
    let writer = try Connection(path: cli.databasePath)
    try writer.execute("UPDATE alibis SET statement = 'At the pond' WHERE animal_id = 1")
    let queued = "SELECT count(*) FROM search_queue"
    #expect(try writer.scalar(queued)?.integerValue == 1)
    #expect(try jsonArray(cli.succeed("search", "vane", "--json")).isEmpty)
    let pond = try jsonArray(cli.succeed("search", "pond", "--json"))
    #expect(pond.map { $0["snippet"] as? String } == ["At the [pond]"])
    #expect(pond.map { $0["rank"] as? Int } == [1])
    #expect(try jsonArray(cli.succeed("search", "pond OR vane", "--raw", "--json")).count == 1)
    #expect(try writer.scalar(queued)?.integerValue == 1)
    // The next write indexes it; the answers stay the same.
    cli.succeed("alibi", "crow", "On the roof")
    #expect(try writer.scalar(queued)?.integerValue == 0)
    #expect(
      try jsonArray(cli.succeed("search", "pond", "--json")).map { $0["snippet"] as? String }
        == ["At the [pond]"])
  }
}
