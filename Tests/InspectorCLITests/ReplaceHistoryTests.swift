import Foundation
import Testing

@testable import InspectorCLI

/// Another client's REPLACE (docs/history.md "What other clients' REPLACE records"): SQLite
/// removes the row in the way without its delete trigger, and migration 0011's triggers record
/// it, so `history`, `undo`, `--as-of` and `check` tell what happened.
extension UndoCommandTests {
  /// Every recorded table's rows, in key order, as the sqlite3 shell prints them.
  func recordedRows(_ cli: CLITestCase) throws -> String? {
    try sqlite3(
      cli,
      """
      SELECT 'animals', id, name, species, paw_size, emoji FROM animals ORDER BY id;
      SELECT 'fruits', * FROM fruits ORDER BY id;
      SELECT 'favorite_fruits', * FROM favorite_fruits ORDER BY animal_id, fruit_id;
      SELECT 'alibis', * FROM alibis ORDER BY animal_id;
      SELECT 'sleep_schedules', * FROM sleep_schedules ORDER BY animal_id;
      SELECT 'suspicion_levels', * FROM suspicion_levels ORDER BY animal_id;
      SELECT 'incidents', * FROM incidents ORDER BY id;
      """)
  }

  /// The changes of the newest change set, as `history --json` lists them.
  func latestChanges(_ cli: CLITestCase) throws -> [[String: Any]] {
    let sets = try jsonArray(cli.succeed("history", "--json", "--limit", "1"))
    return try #require(sets.first?["changes"] as? [[String: Any]])
  }

  @Test func anInsertOrReplaceOfAnAlibiIsRecordedAsTheChangeItIsAndUndone() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("alibi", "cat", "in the shed")
    let stated = try latestChangeSet(cli)
    let before = try recordedRows(cli)
    try sqlite3(
      cli, "INSERT OR REPLACE INTO alibis (animal_id, statement) VALUES (5, 'in the barn')")

    let changes = try latestChanges(cli)
    try #require(changes.count == 1)
    #expect(changes[0]["operation"] as? String == "update")
    #expect((changes[0]["before"] as? [String: Any])?["statement"] as? String == "in the shed")
    #expect((changes[0]["after"] as? [String: Any])?["statement"] as? String == "in the barn")
    #expect(
      try jsonObject(cli.succeed("show", "cat", "--as-of", "\(stated)", "--json"))["alibi"]
        as? String == "in the shed")
    cli.succeed("check")

    cli.succeed("undo")
    #expect(try cli.suspect("cat")["alibi"] as? String == "in the shed")
    #expect(try recordedRows(cli) == before)
    cli.succeed("check")
    // An INSERT OR IGNORE that inserts nothing records nothing.
    let last = try latestChangeSet(cli)
    try sqlite3(cli, "INSERT OR IGNORE INTO alibis (animal_id, statement) VALUES (5, 'elsewhere')")
    #expect(try latestChangeSet(cli) == last)
  }

  /// A key renumbered through one of the rowid's aliases names no column of the key, yet
  /// changes it: another client's statement and `sql --write` alike are recorded as a delete of
  /// the old key and an insert of the new one (docs/history.md "What is recorded"), which the
  /// update triggers' `UPDATE OF` lists (since migration 0024) must not miss.
  @Test(arguments: ["rowid", "_rowid_", "oid"])
  func aKeyRenumberedThroughARowidAliasIsRecorded(alias: String) throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("alibi", "fish", "at the pond")
    let last = try latestChangeSet(cli)
    try sqlite3(cli, "UPDATE alibis SET \(alias) = 7 WHERE animal_id = 1")
    cli.succeed("sql", "--write", "UPDATE alibis SET \(alias) = 8 WHERE animal_id = 7")
    let changeSet = changeSetSQL(of: "history_changes.id")
    let changes =
      "SELECT group_concat((\(changeSet) - \(last)) || ':' || table_id || ':' || key1 || ':'"
      + " || operation || ':' || coalesce(v1, '-'), ' ') FROM history_changes"
      + " WHERE \(changeSet) > \(last)"
    #expect(
      try sqlite3(cli, changes)
        == "1:4:1:0:- 1:4:7:1:at the pond 2:4:7:0:- 2:4:8:1:at the pond")
    #expect(try sqlite3(cli, "SELECT animal_id || ':' || statement FROM alibis") == "8:at the pond")
    cli.succeed("check")
  }

  /// A statement whose rows were all ignored passed its before triggers, which opened a
  /// 'statement' change set, and no after trigger: the empty change set is not listed by
  /// `history`, and inspector's next write seals it with the others, so its id is never
  /// reused (docs/history.md "Change sets").
  @Test func anIgnoredStatementsEmptyChangeSetIsHiddenAndSealed() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("alibi", "cat", "in the shed")
    let last = try latestChangeSet(cli)
    // Three clients' statements, one process each, so each has its own millisecond (the
    // statements of one millisecond share a 'statement' change set).
    for statement in [
      "INSERT OR IGNORE INTO alibis (animal_id, statement) VALUES (5, 'elsewhere')",
      "INSERT INTO suspicion_levels (animal_id, level) VALUES (5, 0.2)",
      "INSERT INTO suspicion_levels (animal_id, level) VALUES (5, 0.4) ON CONFLICT DO NOTHING",
    ] {
      try sqlite3(cli, statement)
    }
    let sets =
      "SELECT group_concat(id || ':' || grouping || ':' || (SELECT count(*)"
      + " FROM history_changes WHERE \(changeSetSQL(of: "history_changes.id")) = c.id), ' ')"
      + " FROM history_change_sets c"
      + " WHERE id > \(last)"
    let ignored = "\(last + 1):statement:0 \(last + 2):statement:1 \(last + 3):statement:0"
    #expect(try sqlite3(cli, sets) == ignored)
    #expect(try latestChangeSet(cli) == last + 2)
    #expect(
      cli.succeed("history", "--verify").hasSuffix("; 3 newer change set(s) not sealed yet\n"))

    cli.succeed("alibi", "cat", "in the barn")
    #expect(try sqlite3(cli, sets) == ignored + " \(last + 4):transaction:1")
    #expect(
      try sqlite3(
        cli,
        "SELECT group_concat(change_set_id, ' ') FROM history_seals"
          + " WHERE change_set_id > \(last)")
        == "\(last + 1) \(last + 2) \(last + 3) \(last + 4)")
    let sealed = try #require(try sqlite3(cli, "SELECT count(*) FROM history_seals"))
    #expect(
      cli.succeed("history", "--verify")
        == "intact: \(sealed) sealed change set(s) up to change set \(last + 4)\n")
    cli.succeed("check")
  }

  /// A client with `PRAGMA recursive_triggers` on can insert and rename a suspect: the key
  /// triggers end after one round (migration 0027), the keys are SQL's, the history records
  /// each change once, and check is clean.
  @Test func aClientWithRecursiveTriggersCanAddAndRenameASuspect() throws {
    let cli = try CLITestCase(seeded: true)
    let last = try latestChangeSet(cli)
    try sqlite3(
      cli,
      "PRAGMA recursive_triggers = ON;"
        + " INSERT INTO animals (id, name, species, paw_size) VALUES (40, 'Xena', 'Yak', 'small');"
        + " UPDATE animals SET name = 'Xavi', species = 'YAK2' WHERE id = 40;")
    #expect(
      try sqlite3(
        cli,
        "SELECT name_key || ':' || species_key || ':' || ifnull(name_folded_from, '-')"
          + " FROM animals WHERE id = 40") == "xavi:yak2:-")
    let changeSet = changeSetSQL(of: "history_changes.id")
    #expect(
      try sqlite3(
        cli,
        "SELECT group_concat(operation || ':' || v1, ' ') FROM history_changes"
          + " WHERE table_id = 2 AND key1 = 40 AND \(changeSet) > \(last)") == "1:Xena 2:Xavi")
    cli.succeed("check")
    #expect(try cli.suspect("id:40")["name"] as? String == "Xavi")
  }

  /// A change set whose only change is another client's REPLACE that wrote a row as it stood
  /// shows nothing, and `--limit` does not count it: `--limit 1` shows the change set before.
  @Test func aLimitCountsTheChangeSetsItShows() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("alibi", "cat", "in the shed")
    let stated = try latestChangeSet(cli)
    try sqlite3(cli, "REPLACE INTO alibis (animal_id, statement) VALUES (5, 'in the shed')")
    #expect(try sqlite3(cli, "SELECT max(id) FROM history_change_sets") == "\(stated + 1)")
    let shown = try jsonArray(cli.succeed("history", "--limit", "1", "--json"))
    #expect(shown.map { $0["id"] as? Int } == [Int(stated)])
    let table = cli.succeed("history", "--limit", "1").split(separator: "\n")
    #expect(table.count == 3, "\(table)")
    #expect(table.last?.contains("alibi set: \"in the shed\"") == true, "\(table)")
  }

  /// Another client's REPLACE that wrote a row as it stood records a change that changes
  /// nothing; undoing it writes nothing either. The undo is still recorded, with what it
  /// reverted, so the next `undo` steps past it to the change set before.
  @Test func undoStepsPastAnUndoThatChangedNothing() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("alibi", "cat", "in the shed")
    let stated = try latestChangeSet(cli)
    try sqlite3(cli, "REPLACE INTO alibis (animal_id, statement) VALUES (5, 'in the shed')")
    let replaced = stated + 1
    #expect(
      try sqlite3(
        cli,
        "SELECT count(*) FROM history_changes"
          + " WHERE \(changeSetSQL(of: "history_changes.id")) = \(replaced)")
        == "1")
    func undo() throws -> (undone: Int64, changeSet: Int64) {
      let json = try jsonObject(cli.succeed("undo", "--json"))
      return (
        Int64(try #require(json["undone"] as? Int)),
        Int64(try #require(json["change_set"] as? Int))
      )
    }
    let first = try undo()
    #expect(first.undone == replaced)
    #expect(
      try sqlite3(
        cli,
        "SELECT group_concat(change_set_id || ':' || reverted_change_set_id || ':' || kind)"
          + " FROM history_reverts WHERE reverted_change_set_id = \(replaced)")
        == "\(first.changeSet):\(replaced):undo")
    let second = try undo()
    #expect(second.undone == stated)
    #expect(second.changeSet == first.changeSet + 1)
    #expect(try cli.suspect("cat")["alibi"] as? String != "in the shed")
    cli.succeed("check")
  }

  @Test func aReplaceOfASuspicionLevelKeepsTheLevelItReplaced() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("suspect", "cat", "0.3")
    let before = try recordedRows(cli)
    try sqlite3(cli, "REPLACE INTO suspicion_levels (animal_id, level) VALUES (5, 0.99)")

    let changes = try latestChanges(cli)
    try #require(changes.count == 1)
    #expect(changes[0]["operation"] as? String == "update")
    #expect(number((changes[0]["before"] as? [String: Any])?["level"]) == 0.3)
    #expect(number((changes[0]["after"] as? [String: Any])?["level"]) == 0.99)
    #expect(cli.succeed("history", "cat", "--limit", "1").contains("suspicion level 0.3 -> 0.99"))
    cli.succeed("check")

    cli.succeed("undo")
    #expect(number(try cli.suspect("cat")["suspicion_level"]) == 0.3)
    #expect(try recordedRows(cli) == before)
    cli.succeed("check")
  }

  /// The stock shell runs with foreign_keys off (the suspect's rows stay, naming the new row)
  /// or on (its cascade removes them, each recorded by its delete trigger).
  @Test(arguments: ["", "PRAGMA foreign_keys = ON; "])
  func aReplaceOfASuspectIsUndoneWithFavoritesAlibiAndLevel(_ pragma: String) throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("alibi", "dove", "on the roof")
    cli.succeed("suspect", "dove", "0.6")
    let levelled = try latestChangeSet(cli)
    let before = try recordedRows(cli)
    try sqlite3(
      cli,
      pragma + "REPLACE INTO animals (id, name, species, paw_size, emoji)"
        + " VALUES (3, 'Dingo', 'Dove', 'small', '🕊️')")

    let changes = try latestChanges(cli)
    let suspect = try #require(changes.first { $0["table"] as? String == "animals" })
    #expect(suspect["operation"] as? String == "update")
    #expect(suspect["before"] as? [String: String] == ["name": "Ding"])
    #expect(suspect["after"] as? [String: String] == ["name": "Dingo"])
    #expect(changes.count == (pragma.isEmpty ? 1 : 6))
    let then = try jsonObject(cli.succeed("show", "3", "--as-of", "\(levelled)", "--json"))
    #expect(then["name"] as? String == "Ding")
    #expect(then["alibi"] as? String == "on the roof")
    cli.succeed("check")

    cli.succeed("undo")
    let dove = try cli.suspect("3")
    #expect(dove["name"] as? String == "Ding")
    #expect(
      dove["favorite_fruits"] as? [String]
        == ["Channel Island Oak Acorn", "Pink Pearl Apple", "Lapins Sweet Cherry"])
    #expect(dove["alibi"] as? String == "on the roof")
    #expect(number(dove["suspicion_level"]) == 0.6)
    #expect(try recordedRows(cli) == before)
    cli.succeed("check")
  }

  @Test func anUpdateOrReplaceOfAFavoriteRecordsTheFavoriteItRemoved() throws {
    let cli = try CLITestCase(seeded: true)
    let before = try recordedRows(cli)
    // The dove favours fruits 12 (position 0), 15 (1) and 6 (2); moving 6 onto 12 removes 12.
    try sqlite3(
      cli,
      "UPDATE OR REPLACE favorite_fruits SET fruit_id = 12 WHERE animal_id = 3 AND fruit_id = 6")
    #expect(
      try sqlite3(cli, "SELECT * FROM favorite_fruits WHERE animal_id = 3 ORDER BY fruit_id")
        == "3|12|2\n3|15|1")

    // A key change is a delete of the old key and an insert of the new one; the insert lands
    // on a key the history holds, so it reads as the replacement of the favourite there.
    let changes = try latestChanges(cli)
    try #require(changes.count == 2)
    #expect(changes[0]["operation"] as? String == "delete")
    #expect(changes[0]["key"] as? [String: Int] == ["animal_id": 3, "fruit_id": 6])
    #expect(
      changes[0]["before"] as? [String: Int] == ["animal_id": 3, "fruit_id": 6, "position": 2])
    #expect(changes[1]["operation"] as? String == "update")
    #expect(changes[1]["key"] as? [String: Int] == ["animal_id": 3, "fruit_id": 12])
    #expect(changes[1]["before"] as? [String: Int] == ["position": 0])
    #expect(changes[1]["after"] as? [String: Int] == ["position": 2])
    cli.succeed("check")

    cli.succeed("undo")
    #expect(try recordedRows(cli) == before)
    // The undo set the replaced favourite back and inserted the moved one at its old key: an
    // insert, not a replacement.
    let undone = try latestChanges(cli)
    #expect(undone.map { $0["operation"] as? String } == ["update", "insert"])
    cli.succeed("check")
  }
}
