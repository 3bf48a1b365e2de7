import Foundation
import SQLiteKit
import Synchronization
import Testing

@testable import CaseStore
@testable import InspectorCLI

/// The runner opens the case file once per command, through ``CaseFileOpener``, and the case
/// store looks at the file once before SQLite opens it (docs/design.md "The unit of work").
@Suite struct CaseFileOpenerTests {
  /// The paths looked at while `arguments` ran, and its stdout.
  func looks(_ cli: CLITestCase, _ arguments: String...) -> (paths: [String], output: String) {
    let looks = Mutex<[String]>([])
    let record: @Sendable (String) -> Void = { path in looks.withLock { $0.append(path) } }
    let outcome = CaseFile.$fileCheckObserver.withValue(record) { cli.run(arguments) }
    #expect(outcome.status == 0, "\(arguments): \(outcome.standardError)")
    return (looks.withLock { $0 }, outcome.standardOutput)
  }

  @Test func aCommandLooksAtTheCaseFileOnce() throws {
    let cli = try CLITestCase(seeded: true)
    let path = cli.databasePath
    #expect(looks(cli, "list", "--species", "crow").paths == [path])
    #expect(looks(cli, "show", "crow").paths == [path])
    #expect(looks(cli, "alibi", "crow", "At the library.").paths == [path])
    #expect(looks(cli, "alibi", "crow").output == "At the library.\n")
    #expect(looks(cli, "fruit", "add", "Durian", "--color", "green").paths == [path])
    #expect(looks(cli, "init").paths == [path])
  }

  @Test func aCommandsWriteIsOneChangeSet() throws {
    let cli = try CLITestCase(seeded: true)
    func changeSets() throws -> [[String: Any]] {
      try #require(
        try JSONSerialization.jsonObject(with: Data(cli.succeed("history", "--json").utf8))
          as? [[String: Any]])
    }
    let before = try changeSets().count
    // The suspect and its two favourites: three rows, one unit of work.
    _ = cli.succeed(
      "animal", "add", "--name", "Mo", "--species", "Mole", "--paw", "small", "--fruit",
      "Elstar Apple", "--fruit", "Strawberry Tree", "--as", "ann", "--note", "dug up")
    let after = try changeSets()
    #expect(after.count == before + 1)
    let latest = try #require(after.first)
    #expect(latest["actor"] as? String == "ann")
    #expect(latest["note"] as? String == "dug up")
    let tables = (latest["changes"] as? [[String: Any]] ?? []).compactMap { $0["table"] as? String }
    #expect(tables == ["animals", "favorite_fruits", "favorite_fruits"])
  }

  @Test func anImportingCommandReadsItsFileBeforeTheWriteBegins() throws {
    let cli = try CLITestCase(seeded: true)
    let opener = CaseFileOpener(
      location: try DatabaseLocation(
        option: nil, environment: ["INSPECTOR_DB": cli.databasePath], required: true),
      busyTimeout: 0, actor: ActorName(option: "ann", environment: [:]), note: nil)
    let other = try Connection(path: cli.databasePath, mode: .readWrite, busyTimeout: 0)
    // While the input is read, another writer gets the lock at once (busy timeout 0).
    let added = try opener.write(
      reading: {
        try other.execute("BEGIN IMMEDIATE")
        try other.execute("ROLLBACK")
        return "Durian"
      }
    ) { db, name in try db.fruits.add(name: name, color: "green").name }
    #expect(added == "Durian")
    // Inside the unit, the lock is the command's.
    #expect(throws: SQLiteError.self) {
      try opener.write { _ in try other.execute("BEGIN IMMEDIATE") }
    }
  }
}
