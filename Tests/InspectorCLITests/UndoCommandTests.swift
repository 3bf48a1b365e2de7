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

  @Test func undoOfARemovalBringsTheSuspectBackWithFavoritesAndInterview() throws {
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
      try sqlite3(cli, statement)
    }
    let favorites = try cli.suspect("crow")["favorite_fruits"] as? [String]
    #expect(favorites == ["Golden Nectar Plum", "Hauer Pippin Apple"])

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

  /// A write that went around the history: another client (the sqlite3 shell) drops the
  /// table's history trigger, writes, and puts the trigger back.
  struct WriteAroundTheHistory: Sendable, CustomTestStringConvertible {
    /// A command run first (inspector's arguments), or none.
    var setup: [String] = []
    /// What the change set to undo does (inspector's arguments, one command).
    let change: [String]
    /// The trigger the other client drops for its write.
    let trigger: String
    /// The other client's write.
    let write: String
    /// What the refusal must say after `cannot undo change set N: `.
    let message: String

    var testDescription: String { "\(change.joined(separator: " ")) then \(write)" }
  }

  static let writesAroundTheHistory = [
    // A level changed behind the history: the undo would put 0.3's predecessor over 0.99.
    WriteAroundTheHistory(
      change: ["suspect", "crow", "0.3"], trigger: "history_suspicion_levels_after_update",
      write: "UPDATE suspicion_levels SET level = 0.99 WHERE animal_id = 4",
      message: "suspicion_levels animal_id 4 (Catie the Crow) is not as the history says:"
        + " level is 0.99, the history says 0.3"),
    // An alibi rewritten behind the history: the undo would delete the new text.
    WriteAroundTheHistory(
      change: ["alibi", "crow", "In the nest."], trigger: "history_alibis_after_update",
      write: "UPDATE alibis SET statement = 'Hand-written.' WHERE animal_id = 4",
      message: "alibis animal_id 4 (Catie the Crow) is not as the history says: statement is"
        + " 'Hand-written.', the history says 'In the nest.'"),
    // An alibi written behind the history for a suspect whose addition is undone: the
    // suspect's cascade would delete it.
    WriteAroundTheHistory(
      change: ["animal", "add", "--name", "Nia", "--species", "Newt", "--paw", "small"],
      trigger: "history_alibis_after_insert",
      write: "INSERT INTO alibis (animal_id, statement) VALUES (11, 'Hand-written.')",
      message: "alibis animal_id 11 (Nia the Newt) is not as the history says: the row is there"
        + " (statement 'Hand-written.'), the history says there is no such row"),
    // An alibi written behind the history after the change set cleared it: the undo would
    // insert the old one over it.
    WriteAroundTheHistory(
      setup: ["alibi", "dove", "On the roof."], change: ["alibi", "dove", "--clear"],
      trigger: "history_alibis_after_insert",
      write: "INSERT INTO alibis (animal_id, statement) VALUES (3, 'Hand-written.')",
      message: "alibis animal_id 3 (Ding the Dove) is not as the history says: the row is there"
        + " (statement 'Hand-written.'), the history says there is no such row"),
    // A row deleted behind the history.
    WriteAroundTheHistory(
      change: ["suspect", "crow", "0.3"], trigger: "history_suspicion_levels_after_delete",
      write: "DELETE FROM suspicion_levels WHERE animal_id = 4",
      message: "suspicion_levels animal_id 4 (Catie the Crow) is not as the history says:"
        + " the row is not there, the history says it holds level 0.3"),
    // A column the undo does not write, changed behind the history: still refused, as the
    // row is not the one the history describes.
    WriteAroundTheHistory(
      change: ["animal", "edit", "crow", "--name", "Cathy"],
      trigger: "history_animals_after_update",
      write: "UPDATE animals SET paw_size = 'large' WHERE id = 4",
      message: "animals id 4 (Cathy the Crow) is not as the history says: paw_size is 'large',"
        + " the history says 'small'"),
  ]

  /// What comes wrong after a row written around the history, later in the same change set.
  struct LaterProblem: Sendable, CustomTestStringConvertible {
    let testDescription: String
    /// SQL the other client runs after writing the level; `{fruits trigger}` stands for the
    /// fruits' update trigger as the schema holds it.
    let sql: String
  }

  static let laterProblems = [
    LaterProblem(
      testDescription: "a second row written around the history",
      sql: "DROP TRIGGER history_fruits_after_update;"
        + " UPDATE fruits SET color = 'grey' WHERE id = 1; {fruits trigger};"),
    LaterProblem(
      testDescription: "a change edited to name a table the history does not record",
      sql: "UPDATE history_changes SET table_id = 9"
        + " WHERE id = (SELECT max(id) FROM history_changes);"),
    LaterProblem(
      testDescription: "a change edited to an operation the history does not know",
      sql: "PRAGMA ignore_check_constraints = ON; UPDATE history_changes SET operation = 5"
        + " WHERE id = (SELECT max(id) FROM history_changes);"),
  ]

  /// A row written around the history, then another problem with a later change of the same
  /// change set, of a table that comes earlier (fruits): the refusal names the row the change
  /// set changed first, as it did when undo compared the rows one by one in that order.
  @Test(arguments: laterProblems)
  func anUndoNamesTheRowItChangedFirst(_ later: LaterProblem) throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("suspect", "crow", "0.3")
    cli.succeed(
      "sql", "--write",
      "UPDATE suspicion_levels SET level = 0.5 WHERE animal_id = 4;"
        + " UPDATE fruits SET color = 'teal' WHERE id = 1")
    let changeSet = try latestChangeSet(cli)
    #expect(
      try sqlite3(
        cli,
        "SELECT group_concat(table_id) FROM (SELECT table_id FROM history_changes"
          + " WHERE id >= (SELECT first_change_id FROM history_change_sets WHERE id = \(changeSet))"
          + " ORDER BY id)") == "6,1")
    func trigger(_ name: String) throws -> String {
      try #require(try sqlite3(cli, "SELECT sql FROM sqlite_schema WHERE name = '\(name)'"))
    }
    let levels = try trigger("history_suspicion_levels_after_update")
    let fruits = try trigger("history_fruits_after_update")
    try sqlite3(
      cli,
      "DROP TRIGGER history_suspicion_levels_after_update;"
        + " UPDATE suspicion_levels SET level = 0.99 WHERE animal_id = 4; \(levels); "
        + later.sql.replacingOccurrences(of: "{fruits trigger}", with: fruits))
    let before = try sqlite3(cli, ".dump")
    expectFailure(
      cli.run("undo", "\(changeSet)"), status: 65,
      messageContains: "cannot undo change set \(changeSet): suspicion_levels animal_id 4"
        + " (Catie the Crow) is not as the history says: level is 0.99, the history says 0.5")
    #expect(try sqlite3(cli, ".dump") == before)
  }

  @Test(arguments: writesAroundTheHistory)
  func anUndoOverARowWrittenAroundTheHistoryIsRefused(_ write: WriteAroundTheHistory) throws {
    let cli = try CLITestCase(seeded: true)
    for command in [write.setup, write.change] where !command.isEmpty {
      let outcome = cli.run(command)
      #expect(outcome.status == 0, "\(command): \(outcome.standardError)")
    }
    let changeSet = try latestChangeSet(cli)
    let trigger = try #require(
      try sqlite3(cli, "SELECT sql FROM sqlite_schema WHERE name = '\(write.trigger)'"))
    try sqlite3(cli, "DROP TRIGGER \(write.trigger); \(write.write); \(trigger);")
    let before = try sqlite3(cli, ".dump")

    let refused = cli.run("undo", "\(changeSet)")
    expectFailure(
      refused, status: 65, messageContains: "cannot undo change set \(changeSet): \(write.message)")
    #expect(refused.standardError.contains("hint: a write went around the history's triggers"))
    #expect(try sqlite3(cli, ".dump") == before)
  }

  @Test func anUndoThatWouldLeaveALaterIncidentWithoutItsFruitNamesTheIncident() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("fruit", "add", "Durian", "--color", "olive")
    let added = try latestChangeSet(cli)
    cli.succeed("incident", "add", "--fruit", "Durian", "--at", "2026-11-30T09:41")
    let before = try sqlite3(cli, ".dump")

    let refused = cli.run("undo", "\(added)")
    expectFailure(
      refused, status: 65,
      messageContains: "cannot undo change set \(added): incidents id 2 names fruit 'Durian'"
        + " (id 20), which this undo would remove")
    #expect(try sqlite3(cli, ".dump") == before)
    // Without the incident, the fruit's addition can be undone.
    cli.succeed("undo")
    cli.succeed("undo", "\(added)")
    expectFailure(cli.run("fruit", "edit", "Durian", "--color", "red"), status: 65)
  }

  @Test func anUndoThatWouldRestoreAFavoriteOfARemovedFruitNamesIt() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("favorite", "remove", "crow", "Hauer Pippin Apple")
    let removal = try latestChangeSet(cli)
    // Only the crow held the fruit: with her favourite gone, it can be removed.
    cli.succeed("fruit", "remove", "Hauer Pippin Apple")
    expectFailure(
      cli.run("undo", "\(removal)"), status: 65,
      messageContains: "cannot undo change set \(removal): favorite_fruits animal_id 4, fruit_id 7"
        + " (Catie the Crow) would name fruits id 7, which is not there")
  }

  /// Another client's change to text of the same characters in other bytes (a composed accent
  /// decomposed) is a change: listed, undone to the bytes before it; the same write made
  /// around the history is a fault that check and undo name with both values' bytes.
  @Test func textThatDiffersOnlyInItsBytesIsAChange() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("alibi", "crow", "caf\u{E9}")
    let decomposed =
      "UPDATE alibis SET statement = CAST(x'63616665CC81' AS TEXT) WHERE animal_id = 4"
    try sqlite3(cli, decomposed)
    let newest = try jsonArray(cli.succeed("history", "--json", "--limit", "1"))
    let changes = try #require(newest.first?["changes"] as? [[String: Any]])
    #expect(changes.map { $0["table"] as? String } == ["alibis"])
    #expect(cli.succeed("undo").hasPrefix("Undid change set \(try #require(newest[0]["id"]))"))
    let statement = "SELECT hex(statement) FROM alibis WHERE animal_id = 4"
    #expect(try sqlite3(cli, statement) == "636166C3A9")
    cli.succeed("check")

    // Around the history: its update triggers dropped, the write made, the triggers put back.
    let triggers = try #require(
      try sqlite3(
        cli,
        "SELECT group_concat(sql, ';' || char(10)) FROM sqlite_schema"
          + " WHERE name IN ('history_alibis_before_update', 'history_alibis_after_update')"))
    try sqlite3(
      cli,
      "DROP TRIGGER history_alibis_before_update; DROP TRIGGER history_alibis_after_update;"
        + " \(decomposed); \(triggers);")
    let bytes =
      "statement is 'café' (UTF-8 63 61 66 65 CC 81), the history says 'café'"
      + " (UTF-8 63 61 66 C3 A9)"
    let check = cli.run("check")
    #expect(check.status == 65)
    #expect(check.standardOutput.contains(bytes), "\(check.standardOutput)")
    expectFailure(cli.run("undo"), status: 65, messageContains: bytes)
    #expect(try sqlite3(cli, statement) == "63616665CC81")
  }

  /// An undo that would put a suspect back whose species another suspect has taken since is
  /// refused naming the suspect and the rule, and changes nothing.
  @Test func anUndoThatBreaksAUniqueRuleNamesTheRow() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("animal", "remove", "crow")
    let removal = try latestChangeSet(cli)
    cli.succeed("animal", "add", "--name", "Corvin", "--species", "crow", "--paw", "small")
    let before = try Data(contentsOf: URL(fileURLWithPath: cli.databasePath))
    expectFailure(
      cli.run("undo", "\(removal)"), status: 65,
      messageContains: "cannot undo change set \(removal): animals id 4 (Catie the Crow) cannot"
        + " be put back: UNIQUE constraint failed: animals.species_key")
    #expect(try Data(contentsOf: URL(fileURLWithPath: cli.databasePath)) == before)
    #expect(try sqlite3(cli, "SELECT count(*) FROM animals WHERE id = 4") == "0")
  }

  /// Runs the stock sqlite3 shell on the case file, as another client; returns its output
  /// without the last line break, or `nil` when it printed nothing.
  @discardableResult
  func sqlite3(_ cli: CLITestCase, _ sql: String) throws -> String? {
    let shell = try ChildProcess(
      "/usr/bin/sqlite3", [cli.databasePath, sql], environment: ["PATH": "/usr/bin:/bin"],
      directory: cli.directory
    ).wait()
    #expect(shell.status == 0, "\(shell.standardError)")
    #expect(shell.standardError == "")
    let output = shell.standardOutput
    return output.isEmpty ? nil : String(output.dropLast(output.hasSuffix("\n") ? 1 : 0))
  }

  /// The SQL for the change set that holds the change whose id is `change` (an expression such
  /// as `history_changes.id`): the one with the greatest first change at or before it, the
  /// newest of those (docs/history.md "The tables").
  func changeSetSQL(of change: String) -> String {
    "(SELECT s.id FROM history_change_sets AS s WHERE s.first_change_id <= \(change)"
      + " ORDER BY s.first_change_id DESC, s.id DESC LIMIT 1)"
  }

  /// The id of the newest change set.
  func latestChangeSet(_ cli: CLITestCase) throws -> Int64 {
    let sets = try jsonArray(cli.succeed("history", "--json", "--limit", "1"))
    return Int64(try #require(sets.first?["id"] as? Int))
  }
}
