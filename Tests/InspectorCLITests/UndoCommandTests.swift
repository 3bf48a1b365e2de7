import Foundation
import SQLiteKit
import Testing

@testable import InspectorCLI

/// `inspector undo [ID]` (docs/history.md "Undo"), end to end.
@Suite("Undo command")
struct UndoCommandTests {
  @Test func undoOfAnEditRestoresTheNameAndIsRecorded() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("animal", "edit", "crow", "--name", "Cathy", "--as", "ann")
    let edit = try latestChangeSet(cli)
    #expect(try cli.suspect("crow")["name"] as? String == "Cathy")

    let output = cli.succeed("undo", "--as", "bob")
    #expect(
      output == "Undid change set \(edit) (1 change(s)), recorded as change set \(edit + 1).\n")
    #expect(try cli.suspect("crow")["name"] as? String == "Catie")
    let sets = try jsonArray(cli.succeed("history", "crow", "--json", "--limit", "1"))
    #expect(sets[0]["id"] as? Int == Int(edit + 1))
    #expect(sets[0]["actor"] as? String == "bob")
    #expect(sets[0]["note"] as? String == "undo of change set \(edit)")
    let change = try #require((sets[0]["changes"] as? [[String: Any]])?.first)
    #expect((change["before"] as? [String: Any])?["name"] as? String == "Cathy")
    #expect((change["after"] as? [String: Any])?["name"] as? String == "Catie")
    // The derived key follows: the old name finds her again, the new one no longer does.
    #expect(cli.run("show", "Cathy").status == 65)
    #expect(try cli.suspect("Catie")["species"] as? String == "Crow")
  }

  @Test func undoOfARemovalBringsTheSuspectBackWithFavouritesAndInterview() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("suspect", "crow", "0.9")
    cli.succeed("alibi", "crow", "In the nest all night.")
    cli.succeed("sleep", "crow", "--sleep", "21:00", "--wake", "05:30")
    let before = try cli.suspect("crow")
    cli.succeed("animal", "remove", "crow")
    #expect(cli.run("show", "crow").status == 65)

    let json = try jsonObject(cli.succeed("undo", "--json", "--note", "removed by mistake"))
    #expect(json["changes"] as? Int == 7)
    let after = try cli.suspect("crow")
    #expect(after["id"] as? Int == 4)
    #expect(
      after["favorite_fruits"] as? [String]
        == ["Pink Pearl Apple", "Golden Nectar Plum", "Hauer Pippin Apple"])
    #expect(after["alibi"] as? String == "In the nest all night.")
    #expect(after["sleep_schedule"] as? [String: String] == ["sleep": "21:00", "wake": "05:30"])
    #expect(number(after["suspicion_level"]) == 0.9)
    #expect(after["suspicion_label"] as? String == "Extremely suspicious!")
    #expect(after["emoji"] as? String == before["emoji"] as? String)
    #expect(try jsonObject(cli.succeed("show", "crow", "--json")).count == before.count)
    let last = try jsonArray(cli.succeed("history", "--json", "--limit", "1"))
    #expect(last[0]["note"] as? String == "removed by mistake")
    cli.succeed("check")
  }

  @Test func aConflictingUndoIsRefusedAndNamesTheLaterChangeSets() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("suspect", "crow", "0.5")
    let first = try latestChangeSet(cli)
    cli.succeed("suspect", "dove", "0.25")
    cli.succeed("suspect", "crow", "0.75")
    let before = cli.snapshot()
    let historyBefore = cli.succeed("history", "--json")

    let refused = cli.run("undo", "\(first)")
    expectFailure(
      refused, status: 65,
      messageContains: "cannot undo change set \(first): later change set(s) \(first + 2)"
        + " changed the same rows")
    #expect(refused.standardError.contains("hint: undo the later ones first"))
    #expect(cli.snapshot() == before)
    #expect(cli.succeed("history", "--json") == historyBefore)

    // The later change set can be undone; it and its undo still stand after the first.
    cli.succeed("undo", "\(first + 2)")
    #expect(number(try cli.suspect("crow")["suspicion_level"]) == 0.5)
    #expect(number(try cli.suspect("dove")["suspicion_level"]) == 0.25)
    expectFailure(
      cli.run("undo", "\(first)"), status: 65,
      messageContains: "later change set(s) \(first + 2), \(first + 3) changed the same rows")
  }

  @Test func undoOfAWriteByTheSqlite3Shell() throws {
    let cli = try CLITestCase(seeded: true)
    // Two runs of the shell: statements of another client within one millisecond would be one
    // change set (docs/history.md), and one run can be that quick.
    for statement in [
      "UPDATE fruits SET color = 'green' WHERE name = 'Pink Pearl Apple';",
      "DELETE FROM favorite_fruits WHERE animal_id = 4 AND fruit_id = 15;",
    ] {
      let shell = try ChildProcess(
        "/usr/bin/sqlite3", [cli.databasePath, statement], environment: ["PATH": "/usr/bin:/bin"],
        directory: cli.directory
      ).wait()
      #expect(shell.status == 0, "\(shell.standardError)")
    }
    let favourites = try cli.suspect("crow")["favorite_fruits"] as? [String]
    #expect(favourites == ["Golden Nectar Plum", "Hauer Pippin Apple"])

    // Each statement of another client is a change set: the latest is the favourite's delete.
    cli.succeed("undo")
    #expect(
      try cli.suspect("crow")["favorite_fruits"] as? [String]
        == ["Pink Pearl Apple", "Golden Nectar Plum", "Hauer Pippin Apple"])
    cli.succeed("undo", "\(try latestChangeSet(cli) - 2)")
    let fruits = try jsonArray(cli.succeed("fruit", "list", "--json"))
    #expect(
      fruits.first { $0["name"] as? String == "Pink Pearl Apple" }?["color"] as? String == "pink")
  }

  @Test func badAndUnknownChangeSets() throws {
    let cli = try CLITestCase()
    cli.succeed("init")
    expectFailure(cli.run("undo"), status: 65, messageContains: "the history holds no change set")
    cli.succeed("fruit", "add", "Quince", "--color", "yellow")
    expectFailure(cli.run("undo", "99"), status: 65, messageContains: "no change set with id '99'")
    expectFailure(cli.run("undo", "x"), status: 65, messageContains: "no change set with id 'x'")
    #expect(cli.succeed("undo", "--help").contains("USAGE: inspector undo [<id>]"))
  }

  /// The id of the newest change set.
  private func latestChangeSet(_ cli: CLITestCase) throws -> Int64 {
    let sets = try jsonArray(cli.succeed("history", "--json", "--limit", "1"))
    return Int64(try #require(sets.first?["id"] as? Int))
  }
}
