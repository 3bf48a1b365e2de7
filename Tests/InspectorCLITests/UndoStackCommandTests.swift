import CaseStore
import Foundation
import SQLiteKit
import Testing

@testable import InspectorCLI

/// Many steps back (docs/history.md "Undo", "Redo", "Undo to a change set"): `undo` without an
/// id walks back, `redo` steps forward again, `undo --to ID` reverts everything after ID.
@Suite("Undo stack command")
struct UndoStackCommandTests {
  /// The crow's suspicion level and alibi, as `show --json` gives them.
  func crow(_ cli: CLITestCase) throws -> (level: Double?, alibi: String?, name: String?) {
    let crow = try cli.suspect("crow")
    return (number(crow["suspicion_level"]), crow["alibi"] as? String, crow["name"] as? String)
  }

  /// The seed case, then four change sets: the crow's level 0.5 (`base + 1`) and 0.75
  /// (`base + 2`), her alibi (`base + 3`), her level 0.9 (`base + 4`). Returns `base`.
  func fourChanges(_ cli: CLITestCase) throws -> Int64 {
    let base = try undoTests.latestChangeSet(cli)
    cli.succeed("suspect", "crow", "0.5")
    cli.succeed("suspect", "crow", "0.75")
    cli.succeed("alibi", "crow", "In the nest.")
    cli.succeed("suspect", "crow", "0.9")
    #expect(try undoTests.latestChangeSet(cli) == base + 4)
    return base
  }

  let undoTests = UndoCommandTests()

  /// `undo` as JSON: the change set it reverted and its own.
  func undo(_ cli: CLITestCase, _ arguments: String...) throws -> (undone: Int64, own: Int64) {
    let outcome = cli.run(["undo", "--json"] + arguments)
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let json = try jsonObject(outcome.standardOutput)
    return (
      Int64(try #require(json["undone"] as? Int)), Int64(try #require(json["change_set"] as? Int))
    )
  }

  @Test func undoThreeTimesWalksBackThenRedoTwiceStepsForward() throws {
    let cli = try CLITestCase(seeded: true)
    let base = try fourChanges(cli)
    #expect(try crow(cli).level == 0.9)

    // Each undo takes the newest change set not yet undone, never an undo's own.
    #expect(try undo(cli) == (base + 4, base + 5))
    #expect(try crow(cli).level == 0.75)
    #expect(try crow(cli).alibi == "In the nest.")
    #expect(try undo(cli) == (base + 3, base + 6))
    #expect(try crow(cli).level == 0.75)
    #expect(try crow(cli).alibi == "")
    // The level again: base + 2 changed the same row as base + 4, whose undo set it back.
    #expect(
      cli.succeed("undo")
        == "Undid change set \(base + 2) (1 change(s)), recorded as change set \(base + 7).\n")
    #expect(try crow(cli).level == 0.5)
    #expect(try crow(cli).alibi == "")

    // Redo re-applies the newest undo first.
    #expect(
      cli.succeed("redo", "--as", "bob")
        == "Redid change set \(base + 2) (undone by change set \(base + 7)): 1 change(s),"
        + " recorded as change set \(base + 8).\n")
    #expect(try crow(cli).level == 0.75)
    #expect(try crow(cli).alibi == "")
    let redo = try jsonObject(cli.succeed("redo", "--json"))
    #expect(redo["undo"] as? Int == Int(base + 6))
    #expect(redo["change_set"] as? Int == Int(base + 9))
    #expect(redo["changes"] as? Int == 1)
    #expect(try crow(cli).level == 0.75)
    #expect(try crow(cli).alibi == "In the nest.")

    let sets = try jsonArray(cli.succeed("history", "crow", "--json", "--limit", "2"))
    #expect(
      sets.map { $0["note"] as? String } == [
        "redo of change set \(base + 3)",
        "redo of change set \(base + 2)",
      ])
    #expect(sets[1]["actor"] as? String == "bob")

    // The third redo brings back the first undo's change set; then there is nothing left.
    #expect(try jsonObject(cli.succeed("redo", "--json"))["undo"] as? Int == Int(base + 5))
    #expect(try crow(cli).level == 0.9)
    let before = try Data(contentsOf: URL(fileURLWithPath: cli.databasePath))
    expectFailure(
      cli.run("redo"), status: 65,
      messageContains: "nothing to redo: no undo is in effect after change set \(base + 4)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: cli.databasePath)) == before)
    cli.succeed("check")
  }

  @Test func aNewChangeEndsRedoAndARedoCanBeUndone() throws {
    let cli = try CLITestCase(seeded: true)
    let base = try fourChanges(cli)
    _ = try undo(cli)
    _ = try undo(cli)
    cli.succeed("suspect", "dove", "0.25")
    let before = try Data(contentsOf: URL(fileURLWithPath: cli.databasePath))
    expectFailure(
      cli.run("redo", "--json"), status: 65,
      messageContains: "nothing to redo: no undo is in effect after change set \(base + 7)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: cli.databasePath)) == before)

    // The new change is the next to undo; redo then re-applies it, and undo undoes the redo.
    #expect(try undo(cli) == (base + 7, base + 8))
    #expect(number(try cli.suspect("dove")["suspicion_level"]) == 0.0)
    #expect(try jsonObject(cli.succeed("redo", "--json"))["undo"] as? Int == Int(base + 8))
    #expect(number(try cli.suspect("dove")["suspicion_level"]) == 0.25)
    #expect(try undo(cli) == (base + 9, base + 10))
    #expect(number(try cli.suspect("dove")["suspicion_level"]) == 0.0)
    let last = try jsonArray(cli.succeed("history", "--json", "--limit", "1"))
    #expect(last[0]["note"] as? String == "undo of change set \(base + 9)")
    // The undos before the new change stay undone: walking back passes them.
    #expect(try undo(cli) == (base + 2, base + 11))
    #expect(try crow(cli).level == 0.5)
    #expect(try crow(cli).alibi == "")
  }

  @Test func undoToRevertsEverythingAfterAChangeSetInOneChangeSet() throws {
    let cli = try CLITestCase(seeded: true)
    let base = try fourChanges(cli)
    cli.succeed("animal", "edit", "crow", "--name", "Cathy")
    _ = try undo(cli)  // base + 6 undoes the name (base + 5)
    #expect(try crow(cli).name == "Catie")

    let json = try jsonObject(cli.succeed("undo", "--to", "\(base + 1)", "--json"))
    #expect(json["to"] as? Int == Int(base + 1))
    // In effect after base + 1: base + 2, 3, 4 and the undo base + 6 (base + 5 is undone).
    #expect(json["undone"] as? Int == 4)
    #expect(json["change_set"] as? Int == Int(base + 7))
    // Only the rows that differ from then, each once: the level and the alibi (the name is
    // Catie again already).
    #expect(json["changes"] as? Int == 2)
    #expect(try crow(cli) == (0.5, "", "Catie"))
    let sets = try jsonArray(cli.succeed("history", "crow", "--json", "--limit", "1"))
    #expect(sets[0]["id"] as? Int == Int(base + 7))
    #expect(sets[0]["note"] as? String == "undo of change sets after \(base + 1)")
    cli.succeed("check")

    // undo walks on from base + 1; redo steps forward again, the whole --to at once.
    #expect(try undo(cli) == (base + 1, base + 8))
    #expect(try crow(cli).level == 0.0)
    #expect(
      cli.succeed("redo") == "Redid change set \(base + 1) (undone by change set \(base + 8)):"
        + " 1 change(s), recorded as change set \(base + 9).\n")
    #expect(
      cli.succeed("redo") == "Redid what change set \(base + 7) undid: 2 change(s), recorded as"
        + " change set \(base + 10).\n")
    #expect(try crow(cli) == (0.9, "In the nest.", "Catie"))
    // A redo is undone like any change set: the --to again.
    #expect(try undo(cli) == (base + 10, base + 11))
    #expect(try crow(cli) == (0.5, "", "Catie"))
  }

  @Test func undoToBringsBackWhatALaterUndoTookFromBeforeIt() throws {
    let cli = try CLITestCase(seeded: true)
    let base = try fourChanges(cli)
    // The alibi (base + 3) undone by its id after the level's last change (base + 4).
    #expect(try undo(cli, "\(base + 3)") == (base + 3, base + 5))
    #expect(try crow(cli) == (0.9, "", "Catie"))

    // Right after base + 3 the alibi was there: the undo of it goes, with the level's change.
    let json = try jsonObject(cli.succeed("undo", "--to", "\(base + 3)", "--json"))
    #expect(json["undone"] as? Int == 2)
    #expect(json["change_set"] as? Int == Int(base + 6))
    #expect(try crow(cli) == (0.75, "In the nest.", "Catie"))
    // base + 3 is in effect again, and the next to undo.
    #expect(try undo(cli) == (base + 3, base + 7))
    #expect(try crow(cli) == (0.75, "", "Catie"))
  }

  @Test func undoToOverManyChangeSetsNamesTheFirstAndTheLast() throws {
    let cli = try CLITestCase(seeded: true)
    let base = try undoTests.latestChangeSet(cli)
    for level in 1...11 { cli.succeed("suspect", "crow", "0.\(String(format: "%02d", level))") }
    #expect(try crow(cli).level == 0.11)
    #expect(
      cli.succeed("undo", "--to", "\(base)")
        == "Undid everything after change set \(base) (change set(s) \(base + 1) to \(base + 11),"
        + " 11 in all): 1 change(s), recorded as change set \(base + 12).\n")
    #expect(try crow(cli).level == 0.0)
  }

  @Test func undoToBringsBackARemovedSuspectAndRemovesWhatCameLater() throws {
    let cli = try CLITestCase(seeded: true)
    let base = try undoTests.latestChangeSet(cli)
    let crowBefore = try cli.suspect("crow")
    cli.succeed("fruit", "add", "Durian", "--color", "olive")
    cli.succeed("favorite", "add", "crow", "Durian")
    cli.succeed("suspect", "crow", "0.9")
    cli.succeed("animal", "remove", "crow")
    cli.succeed("animal", "add", "--name", "Nia", "--species", "Newt", "--paw", "small")
    cli.succeed("incident", "add", "--fruit", "Durian", "--at", "2026-11-30T09:41")

    let json = try jsonObject(cli.succeed("undo", "--to", "\(base + 1)", "--json"))
    #expect(json["undone"] as? Int == 5)
    // The crow as she was, without the favourite added after; the newt and the incident gone;
    // the fruit, added by base + 1, kept.
    #expect(
      try cli.suspect("crow")["favorite_fruits"] as? [String] == crowBefore["favorite_fruits"]
        as? [String])
    #expect(number(try cli.suspect("crow")["suspicion_level"]) == 0.0)
    expectFailure(cli.run("show", "newt"), status: 65)
    #expect(try jsonArray(cli.succeed("incident", "list", "--json")).count == 1)
    #expect(
      try jsonArray(cli.succeed("fruit", "list", "--json")).contains {
        $0["name"] as? String == "Durian"
      })
    cli.succeed("check")

    // Redo: back to after base + 6, the crow removed again.
    cli.succeed("redo")
    expectFailure(cli.run("show", "crow"), status: 65)
    #expect(try cli.suspect("newt")["name"] as? String == "Nia")
    #expect(try jsonArray(cli.succeed("incident", "list", "--json")).count == 2)
    cli.succeed("check")
  }

  @Test func undoToFollowsARowWhoseKeyAnotherClientChanged() throws {
    let cli = try CLITestCase(seeded: true)
    let base = try undoTests.latestChangeSet(cli)
    try undoTests.sqlite3(cli, "UPDATE incidents SET id = 7 WHERE id = 1;")
    #expect(
      try jsonArray(cli.succeed("incident", "list", "--json")).map { $0["id"] as? Int } == [7])
    cli.succeed("undo", "--to", "\(base)")
    #expect(
      try jsonArray(cli.succeed("incident", "list", "--json")).map { $0["id"] as? Int } == [1])
    cli.succeed("check")
  }

  @Test func undoToTakesSwappedNamesBackChangeByChange() throws {
    let cli = try CLITestCase(seeded: true)
    let base = try undoTests.latestChangeSet(cli)
    cli.succeed("animal", "edit", "crow", "--species", "Rook")
    cli.succeed("animal", "edit", "dove", "--species", "Crow")
    cli.succeed("animal", "edit", "rook", "--species", "Dove")
    // Row by row, the crow (id 4) could not be a crow while the dove (id 3) still is one: the
    // three changes are reverted in turn instead.
    let json = try jsonObject(cli.succeed("undo", "--to", "\(base)", "--json"))
    #expect(json["changes"] as? Int == 3)
    #expect(try cli.suspect("id:4")["species"] as? String == "Crow")
    #expect(try cli.suspect("id:3")["species"] as? String == "Dove")
    cli.succeed("check")
    cli.succeed("redo")
    #expect(try cli.suspect("id:4")["species"] as? String == "Dove")
    #expect(try cli.suspect("id:3")["species"] as? String == "Crow")
  }

  @Test func aPruneKeepsWhatTheUndosItKeepsReverted() throws {
    let cli = try CLITestCase(seeded: true)
    let base = try undoTests.latestChangeSet(cli)
    cli.succeed("animal", "edit", "crow", "--name", "Cathy")
    cli.succeed("animal", "edit", "dove", "--name", "Dina")
    _ = try undo(cli)  // base + 3 undoes the dove's name (base + 2)
    _ = try undo(cli)  // base + 4 undoes the crow's (base + 1)
    let sets = try jsonArray(cli.succeed("history", "--json", "--limit", "1"))
    let cut = try #require(sets.first?["at"] as? String)
    let pruned = try jsonObject(cli.succeed("history", "prune", "--before", cut, "--json"))
    #expect(pruned["baseline"] as? Int == Int(base + 3))
    // The pruned undo's record went with it; the kept undo's stays.
    let reverts = try jsonArray(cli.succeed("sql", "SELECT * FROM history_reverts", "--json"))
    #expect(reverts.map { $0["change_set_id"] as? Int } == [Int(base + 4)])
    #expect(reverts.map { $0["reverted_change_set_id"] as? Int } == [Int(base + 1)])
    #expect(try crow(cli).name == "Catie")
    // The kept undo is still one to redo: the crow's name comes back.
    #expect(try jsonObject(cli.succeed("redo", "--json"))["undo"] as? Int == Int(base + 4))
    #expect(try crow(cli).name == "Cathy")
    #expect(try cli.suspect("dove")["name"] as? String == "Ding")
    cli.succeed("check")
  }

  @Test func undoToSpeaksEveryFormat() throws {
    let cli = try CLITestCase(seeded: true)
    let base = try fourChanges(cli)
    #expect(
      cli.succeed("undo", "--to", "\(base + 2)", "--format", "csv")
        == "to,undone,change_set,changes\r\n\(base + 2),2,\(base + 5),2\r\n")
    #expect(try crow(cli) == (0.75, "", "Catie"))
    // After base + 4, only the undo is in effect: reverting it brings base + 3 and 4 back.
    #expect(
      cli.succeed("undo", "--to", "\(base + 4)")
        == "Undid everything after change set \(base + 4) (change set(s) \(base + 5)):"
        + " 2 change(s), recorded as change set \(base + 6).\n")
    #expect(try crow(cli) == (0.9, "In the nest.", "Catie"))
    #expect(
      cli.succeed("redo", "--format", "csv")
        == "undo,change_set,changes\r\n\(base + 6),\(base + 7),2\r\n")
    #expect(try crow(cli) == (0.75, "", "Catie"))
    #expect(
      cli.succeed("undo", "--format", "ndjson")
        == "{\"undone\":\(base + 7),\"change_set\":\(base + 8),\"changes\":2}\n")
    #expect(try crow(cli) == (0.9, "In the nest.", "Catie"))
    #expect(
      cli.succeed("redo", "--format", "ndjson")
        == "{\"undo\":\(base + 8),\"change_set\":\(base + 9),\"changes\":2}\n")
    #expect(
      cli.succeed("undo", "--to", "\(base + 1)", "--format", "ndjson")
        == "{\"to\":\(base + 1),\"undone\":4,\"change_set\":\(base + 10),\"changes\":1}\n")
    #expect(try crow(cli) == (0.5, "", "Catie"))
    let latest = try undoTests.latestChangeSet(cli)
    #expect(
      cli.succeed("undo", "--to", "\(latest)")
        == "Every row changed after change set \(latest) stands as it did then; nothing to"
        + " undo.\n")
  }

  @Test func refusalsLeaveTheFileByteForByte() throws {
    let cli = try CLITestCase(seeded: true)
    let base = try fourChanges(cli)
    _ = try undo(cli)  // base + 5: the level back to 0.75
    // Another client writes the level around the history's triggers (the one that opens a
    // change set and the one that records the change).
    let triggers = try ["before", "after"].map { when in
      try #require(
        try undoTests.sqlite3(
          cli,
          "SELECT sql FROM sqlite_schema"
            + " WHERE name = 'history_suspicion_levels_\(when)_update'"))
    }
    try undoTests.sqlite3(
      cli,
      "DROP TRIGGER history_suspicion_levels_before_update;"
        + " DROP TRIGGER history_suspicion_levels_after_update;"
        + " UPDATE suspicion_levels SET level = 0.99 WHERE animal_id = 4;"
        + " \(triggers[0]); \(triggers[1]);")
    let path = URL(fileURLWithPath: cli.databasePath)
    let before = try Data(contentsOf: path)
    let problem =
      "suspicion_levels animal_id 4 (Catie the Crow) is not as the history says: level is"
      + " 0.99, the history says 0.75"
    // undo walks past its own undo to the alibi (which the level does not stop) and then ...
    let alibi = try undo(cli)
    #expect(alibi.undone == base + 3)
    let afterAlibi = try Data(contentsOf: path)
    #expect(afterAlibi != before)
    // ... to the level, which the other client changed.
    expectFailure(
      cli.run("undo"), status: 65,
      messageContains: "cannot undo change set \(base + 2): \(problem)")
    #expect(try Data(contentsOf: path) == afterAlibi)
    expectFailure(
      cli.run("undo", "--to", "\(base)"), status: 65, messageContains: problem)
    #expect(try Data(contentsOf: path) == afterAlibi)
    // redo: the newest undo (the alibi's) does not touch the level, so it goes; the one
    // before it (base + 5) would write the level, and is refused, naming that undo.
    #expect(try jsonObject(cli.succeed("redo", "--json"))["undo"] as? Int == Int(base + 6))
    let afterRedo = try Data(contentsOf: path)
    expectFailure(
      cli.run("redo"), status: 65,
      messageContains: "cannot undo change set \(base + 5): \(problem)")
    #expect(try Data(contentsOf: path) == afterRedo)
  }

  @Test func badUsesOfUndoAndRedo() throws {
    let cli = try CLITestCase()
    cli.succeed("init")
    expectFailure(
      cli.run("redo"), status: 65, messageContains: "nothing to redo: no undo is in effect")
    expectFailure(
      cli.run("undo", "--to", "1"), status: 65, messageContains: "no change set with id '1'")
    cli.succeed("fruit", "add", "Quince", "--color", "yellow")
    cli.succeed("fruit", "add", "Medlar", "--color", "brown")
    expectFailure(
      cli.run("undo", "--to", "x"), status: 65, messageContains: "no change set with id 'x'")
    expectFailure(
      cli.run("undo", "--to", "99"), status: 65, messageContains: "no change set with id '99'")
    expectFailure(
      cli.run("undo", "1", "--to", "1"), status: 64,
      messageContains: "Give either <id> or --to, not both")
    cli.succeed("undo")
    cli.succeed("undo")
    // Every change set is undone: there is nothing further back.
    expectFailure(
      cli.run("undo"), status: 65,
      messageContains: "nothing to undo: every change set of the history is undone")
    #expect(try jsonArray(cli.succeed("fruit", "list", "--json")).isEmpty)
    #expect(cli.succeed("redo", "--help").contains("USAGE: inspector redo"))
    #expect(cli.succeed("undo", "--help").contains("--to <id>"))
  }
  @Test func anUndoByIdIsPassedOverByTheWalk() throws {
    let cli = try CLITestCase(seeded: true)
    let base = try fourChanges(cli)
    // The alibi by its id: recorded as an undo like any other.
    #expect(try undo(cli, "\(base + 3)") == (base + 3, base + 5))
    #expect(try undo(cli) == (base + 4, base + 6))
    #expect(try crow(cli) == (0.75, "", "Catie"))
    #expect(try undo(cli) == (base + 2, base + 7))
    #expect(try crow(cli) == (0.5, "", "Catie"))
    // Redo steps forward through the three, newest undo first.
    for (undo, level, alibi) in [
      (base + 7, 0.75, ""), (base + 6, 0.9, ""), (base + 5, 0.9, "In the nest."),
    ] {
      #expect(try jsonObject(cli.succeed("redo", "--json"))["undo"] as? Int == Int(undo))
      #expect(try crow(cli) == (level, alibi, "Catie"))
    }
  }

  /// A file from before migration 0017: its undos are known by inspector's note only.
  @Test func theUndosOfAnOlderFileAreReadFromTheirNotes() throws {
    let cli = try CLITestCase()
    let connection = try Connection(path: cli.databasePath, mode: .readWriteCreate)
    let older = try #require(
      CaseDatabase.migrator.migrations.map(\.version).filter { $0 < 17 }.max())
    try CaseDatabase.migrator.migrate(connection, upTo: older)
    // Change sets as inspector recorded them then: each an attributed transaction.
    for (note, sql) in [
      (nil, "INSERT INTO fruits (name, color) VALUES ('Quince', 'yellow')"),
      (nil, "UPDATE fruits SET color = 'green'"),
      ("undo of change set 2", "UPDATE fruits SET color = 'yellow'"),
      // Undoing that undo flipped the same change set back, before walking back existed.
      ("undo of change set 3", "UPDATE fruits SET color = 'green'"),
      // A note of the user's is not read as an undo.
      ("undo of change set 1 (typo)", "UPDATE fruits SET name = 'Quince!'"),
    ] as [(String?, String)] {
      try connection.execute(
        """
        INSERT INTO history_change_sets (at, actor, note, grouping)
        VALUES (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'ann', ?, 'transaction');
        """, [note])
      try connection.execute(
        "INSERT INTO history_context (only, change_set_id) VALUES (1, last_insert_rowid())")
      try connection.execute(sql)
      try connection.execute("DELETE FROM history_context")
    }
    cli.succeed("migrate", "up")
    let reverts = try jsonArray(
      cli.succeed("sql", "SELECT * FROM history_reverts ORDER BY change_set_id", "--json"))
    #expect(reverts.map { $0["change_set_id"] as? Int } == [3, 4])
    #expect(reverts.map { $0["reverted_change_set_id"] as? Int } == [2, 3])
    #expect(reverts.map { $0["kind"] as? String } == ["undo", "undo"])

    func fruit() throws -> [String: Any] {
      try #require(try jsonArray(cli.succeed("fruit", "list", "--json")).first)
    }
    // The user's change set is an ordinary one: undone first.
    #expect(try undo(cli) == (5, 6))
    #expect(try fruit()["name"] as? String == "Quince")
    // Change set 4 undid the undo of 2, so 2 is in effect: the walk reverts it, not 4.
    #expect(try undo(cli) == (2, 7))
    #expect(try fruit()["color"] as? String == "yellow")
    #expect(try undo(cli) == (1, 8))
    #expect(try jsonArray(cli.succeed("fruit", "list", "--json")).isEmpty)
  }
}
