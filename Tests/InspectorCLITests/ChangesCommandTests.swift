import Foundation
import Testing

@testable import InspectorCLI

/// `inspector diff` and `inspector changes export|show|apply` (docs/changes.md): two copies of
/// the seed case changed differently, compared, merged, and their conflicts reported and
/// resolved each way.
@Suite("Diff and changesets")
struct ChangesCommandTests {
  /// The office's case file (seeded) and a laptop copy taken by `backup`, plus the path of the
  /// untouched copy the laptop's changes are taken against.
  func makeCopies() throws -> (office: CLITestCase, laptop: CLITestCase, base: String) {
    let office = try CLITestCase(seeded: true)
    let base = office.directory.appendingPathComponent("base.sqlite").path
    office.succeed("backup", base)
    let laptop = try CLITestCase()
    try FileManager.default.copyItem(atPath: base, toPath: laptop.databasePath)
    return (office, laptop, base)
  }

  @Test func diffListsEachChangedRecordInWordsAndAsData() throws {
    let (office, _, base) = try makeCopies()
    office.succeed("suspect", "crow", "0.9")
    office.succeed("animal", "add", "--name", "Nia", "--species", "Newt", "--paw", "small")
    office.succeed("favorite", "add", "newt", "Pink Pearl Apple")
    office.succeed("animal", "remove", "snail")
    let table = office.succeed("diff", base)
    #expect(table.contains("Catie the Crow: suspicion level 0.0 -> 0.9"))
    #expect(table.contains("suspect added: Nia the Newt (id 11)"))
    #expect(table.contains("Nia the Newt: favourite added: Pink Pearl Apple at position 1"))
    #expect(table.contains("suspect removed: Soloman the Snail (id 2)"))
    let rows = try jsonArray(office.succeed("diff", base, "--json"))
    let level = try #require(rows.first { $0["table"] as? String == "suspicion_levels" })
    #expect(level["operation"] as? String == "insert")
    #expect((level["key"] as? [String: Any])?["animal_id"] as? Int == 4)
    #expect((level["after"] as? [String: Any])?["level"] as? Double == 0.9)
    #expect(level["before"] is NSNull)
    let removed = try #require(
      rows.first { $0["table"] as? String == "animals" && $0["operation"] as? String == "delete" })
    #expect((removed["before"] as? [String: Any])?["name"] as? String == "Soloman")
    #expect((removed["before"] as? [String: Any])?["species_key"] == nil)
    #expect(
      office.succeed("diff", office.databasePath) == "No differences from \(office.databasePath).\n"
    )
  }

  @Test func changesTakenOnALaptopMergeBackAsOneRecordedChangeSet() throws {
    let (office, laptop, base) = try makeCopies()
    laptop.succeed("alibi", "raccoon", "At the library")
    laptop.succeed("suspect", "hedgehog", "0.7")
    office.succeed("suspect", "crow", "0.9")
    let file = laptop.directory.appendingPathComponent("laptop.changes").path
    laptop.succeed("changes", "export", "--base", base, "--output", file)
    let shown = office.succeed("changes", "show", file)
    #expect(shown.contains("Rénard the Raccoon: alibi 'At the library'"))
    #expect(shown.contains("suspicion level 0.0 -> 0.7"))
    let applied = office.succeed(
      "changes", "apply", file, "--as", "ann", "--note", "from the laptop")
    #expect(applied == "Applied \(file): 2 change(s).\n")
    #expect(try office.suspect("raccoon")["alibi"] as? String == "At the library")
    #expect(try office.suspect("crow")["suspicion_level"] as? Double == 0.9)
    let history = try jsonArray(office.succeed("history", "--limit", "1", "--json"))
    #expect(history.first?["note"] as? String == "from the laptop")
    #expect((history.first?["changes"] as? [Any])?.count == 2)
    // The laptop now differs from the office only by the office's own change.
    let left = try jsonArray(office.succeed("diff", laptop.databasePath, "--json"))
    #expect(
      left.map { $0["description"] as? String } == ["Catie the Crow: suspicion level 0.0 -> 0.9"])
  }

  @Test func conflictsAreListedAndNothingAppliedUnlessAPolicySaysWhatToDo() throws {
    let (office, laptop, base) = try makeCopies()
    laptop.succeed("suspect", "crow", "0.2")  // both sides set Catie's level
    laptop.succeed("alibi", "snail", "Home")  // the snail is removed at the office
    laptop.succeed("alibi", "hedgehog", "Out foraging")  // no conflict
    office.succeed("suspect", "crow", "0.9")
    office.succeed("animal", "remove", "snail")
    let file = laptop.directory.appendingPathComponent("laptop.changes").path
    laptop.succeed("changes", "export", "--base", base, "--output", file)

    let refused = office.run("changes", "apply", file)
    #expect(refused.status == 65)
    #expect(
      refused.standardOutput
        == "conflict (conflict): Catie the Crow: suspicion level 0.0 -> 0.2\n"
        + "conflict (foreign-key): 1 reference(s) to missing rows\n")
    #expect(refused.standardError.hasPrefix("inspector: error: 2 conflict(s), nothing applied"))
    #expect(try office.suspect("hedgehog")["alibi"] as? String == "")

    // A foreign key to a removed suspect cannot be skipped record by record: still refused.
    let skipped = office.run("changes", "apply", file, "--on-conflict", "skip")
    #expect(skipped.status == 65)
    // The hint never suggests the policy just given.
    #expect(refused.standardError.contains("hint: add --on-conflict skip or --on-conflict replace"))
    #expect(skipped.standardError.contains("hint: no --on-conflict policy applies these"))
    office.succeed("sql", "--write", "DELETE FROM suspicion_levels WHERE animal_id = 4")
    laptop.succeed("alibi", "snail", "--clear")
    laptop.succeed("changes", "export", "--base", base, "--output", file)
    office.succeed("suspect", "crow", "0.9")

    let skip = office.run("changes", "apply", file, "--on-conflict", "skip")
    #expect(skip.status == 0, "\(skip.standardError)")
    #expect(skip.standardError == "")
    #expect(
      skip.standardOutput
        == "Applied \(file): 1 of 2 change(s) written (0 replaced), 1 skipped.\n"
        + "skipped (conflict): Catie the Crow: suspicion level 0.0 -> 0.2\n")
    #expect(try office.suspect("crow")["suspicion_level"] as? Double == 0.9)
    #expect(try office.suspect("hedgehog")["alibi"] as? String == "Out foraging")

    let replace = office.run("changes", "apply", file, "--on-conflict", "replace")
    #expect(replace.status == 0, "\(replace.standardError)")
    #expect(try office.suspect("crow")["suspicion_level"] as? Double == 0.2)
  }

  /// A row changed on both sides (data), a row gone on one side (not found), and a fruit name
  /// taken on both sides under different ids (constraint), each refused, skipped and replaced.
  @Test func eachKindOfRowConflictIsReportedAndResolvedEachWay() throws {
    let (office, laptop, base) = try makeCopies()
    office.succeed("alibi", "raccoon", "Asleep")
    office.succeed("alibi", "fish", "Swimming")
    office.succeed("fruit", "add", "Durian", "--color", "olive")
    try FileManager.default.removeItem(atPath: base)
    office.succeed("backup", base)
    try FileManager.default.removeItem(atPath: laptop.databasePath)
    try FileManager.default.copyItem(atPath: base, toPath: laptop.databasePath)
    laptop.succeed("alibi", "raccoon", "At the library")  // office changes it too: data
    laptop.succeed("alibi", "fish", "--clear")  // office clears it first: not found
    laptop.succeed("fruit", "add", "Jackfruit", "--color", "green")  // office adds it too
    office.succeed("alibi", "raccoon", "In the garden")
    office.succeed("alibi", "fish", "--clear")
    office.succeed("fruit", "add", "Rambutan", "--color", "red")
    office.succeed("fruit", "add", "jackfruit", "--color", "yellow")
    let file = laptop.directory.appendingPathComponent("laptop.changes").path
    laptop.succeed("changes", "export", "--base", base, "--output", file)

    let refused = office.run("changes", "apply", file, "--json")
    #expect(refused.status == 65)
    let kinds = try jsonArray(refused.standardOutput).compactMap { $0["kind"] as? String }
    #expect(kinds.sorted() == ["conflict", "data", "not-found"])
    #expect(try office.suspect("raccoon")["alibi"] as? String == "In the garden")

    let skip = office.succeed("changes", "apply", file, "--on-conflict", "skip")
    #expect(skip.hasPrefix("Applied \(file): 0 of 3 change(s) written (0 replaced), 3 skipped.\n"))
    #expect(skip.contains("skipped (data): Rénard the Raccoon: alibi 'Asleep' -> 'At the library'"))
    #expect(skip.contains("skipped (not-found): Fabrizio the Fish: alibi removed (was 'Swimming')"))
    #expect(skip.contains("skipped (conflict): fruit added: Jackfruit ('green')"))
    #expect(try office.suspect("raccoon")["alibi"] as? String == "In the garden")

    // Only the data conflict is written over; the alibi that is gone here and the fruit
    // whose name is taken here (SQLite tried to replace the row of the same id, and the name
    // broke a rule) are skipped, and reported as skipped, with the kind skip gave them.
    let replace = office.succeed("changes", "apply", file, "--on-conflict", "replace")
    #expect(
      replace
        == "Applied \(file): 1 of 3 change(s) written (1 replaced), 2 skipped.\n"
        + "skipped (conflict): fruit added: Jackfruit ('green')\n"
        + "replaced (data): Rénard the Raccoon: alibi 'Asleep' -> 'At the library'\n"
        + "skipped (not-found): Fabrizio the Fish: alibi removed (was 'Swimming')\n")
    #expect(try office.suspect("raccoon")["alibi"] as? String == "At the library")
    let fruits = try jsonArray(office.succeed("fruit", "list", "--json"))
    #expect(fruits.filter { ($0["name"] as? String)?.lowercased() == "jackfruit" }.count == 1)
  }

  /// A suspect removed on the laptop: the office's cascade removes the favourites before the
  /// changeset's own deletes of them arrive, which then find nothing. Not a conflict.
  @Test func rowsRemovedByTheCascadeOfTheSameChangesetAreNoConflict() throws {
    let (office, laptop, base) = try makeCopies()
    laptop.succeed("animal", "remove", "crow")
    let file = laptop.directory.appendingPathComponent("laptop.changes").path
    laptop.succeed("changes", "export", "--base", base, "--output", file)

    #expect(office.succeed("changes", "apply", file) == "Applied \(file): 4 change(s).\n")
    expectFailure(office.run("show", "crow"), status: 65)
    #expect(
      office.succeed(
        "sql", "SELECT count(*) AS n FROM favorite_fruits WHERE animal_id = 4",
        "--format", "csv") == "n\r\n0\r\n")
    let history = try jsonArray(office.succeed("history", "--limit", "1", "--json"))
    #expect((history.first?["changes"] as? [Any])?.count == 4)
    office.succeed("check")
  }

  /// The laptop adds Kiwi and Catie's favourite of it; the office adds Apricot, which gets
  /// the same id. Skipping Kiwi must skip the favourite too (it would name Apricot); a
  /// replace that would make the office's own rows name Kiwi is refused whole.
  @Test func aChangeNamingARowAddedUnderAnIdTakenHereFollowsThatRow() throws {
    let (office, laptop, base) = try makeCopies()
    laptop.succeed("fruit", "add", "Kiwi", "--color", "brown")
    laptop.succeed("favorite", "add", "crow", "Kiwi")
    let file = laptop.directory.appendingPathComponent("laptop.changes").path
    laptop.succeed("changes", "export", "--base", base, "--output", file)
    office.succeed("fruit", "add", "Apricot", "--color", "orange")
    let crowBefore = try office.suspect("crow")["favorite_fruits"] as? [String]
    let dump = try shell("/usr/bin/sqlite3", [office.databasePath, ".dump"], in: office)
    let kiwi = "fruit added: Kiwi ('brown')"
    let favorite = "Catie the Crow: favourite added: Kiwi at position 4"

    let refused = office.run("changes", "apply", file)
    #expect(refused.status == 65)
    #expect(
      refused.standardOutput
        == "conflict (conflict): \(kiwi)\n"
        + "conflict (dependency): \(favorite) (depends on the conflicting \(kiwi))\n")
    #expect(try shell("/usr/bin/sqlite3", [office.databasePath, ".dump"], in: office) == dump)

    // Skipped: nothing names Apricot that did not before.
    let skip = office.run("changes", "apply", file, "--on-conflict", "skip")
    #expect(skip.status == 0, "\(skip.standardError)")
    #expect(
      skip.standardOutput
        == "Applied \(file): 0 of 2 change(s) written (0 replaced), 2 skipped.\n"
        + "skipped (conflict): \(kiwi)\n"
        + "skipped (dependency): \(favorite) (depends on the skipped \(kiwi))\n")
    #expect(try office.suspect("crow")["favorite_fruits"] as? [String] == crowBefore)
    #expect(!(crowBefore?.contains("Apricot") ?? true))

    // Apricot is named here (Ding's favourite, an incident): replacing it would make them
    // name Kiwi. Refused whole, whatever else the changeset holds.
    office.succeed("favorite", "add", "dove", "Apricot")
    office.succeed("incident", "add", "--fruit", "Apricot", "--at", "2026-11-30T09:41")
    let named = try shell("/usr/bin/sqlite3", [office.databasePath, ".dump"], in: office)
    let replace = office.run("changes", "apply", file, "--on-conflict", "replace")
    #expect(replace.status == 65)
    #expect(
      replace.standardOutput
        == "conflict (referenced): \(kiwi) would replace the row of the same id here, which"
        + " rows here name: Ding the Dove: favourite Apricot; incident #2 (Apricot)\n")
    #expect(replace.standardError.contains("nothing applied"))
    #expect(replace.standardError.contains("hint: add --on-conflict skip to leave those changes"))
    #expect(!replace.standardError.contains("or --on-conflict replace"))
    #expect(try shell("/usr/bin/sqlite3", [office.databasePath, ".dump"], in: office) == named)

    // Where nothing here names the row, replace lets Kiwi win and Catie favours Kiwi.
    office.succeed("favorite", "remove", "dove", "Apricot")
    office.succeed("incident", "remove", "2")
    let replaced = office.succeed("changes", "apply", file, "--on-conflict", "replace")
    #expect(
      replaced
        == "Applied \(file): 2 of 2 change(s) written (1 replaced), 0 skipped.\n"
        + "replaced (conflict): \(kiwi)\n")
    #expect(try office.suspect("crow")["favorite_fruits"] as? [String] == crowBefore! + ["Kiwi"])
    office.succeed("check")
  }

  /// The laptop removes the snail; the office gave it an alibi. The removal's cascade would
  /// take that alibi away unlisted: a conflict, refused, skipped (with the changeset's own
  /// deletes of the snail's favourites) or replaced, listing the alibi.
  @Test func aRemovalWhoseCascadeTakesRowsHereIsAConflict() throws {
    let (office, laptop, base) = try makeCopies()
    laptop.succeed("animal", "remove", "snail")
    let file = laptop.directory.appendingPathComponent("laptop.changes").path
    laptop.succeed("changes", "export", "--base", base, "--output", file)
    office.succeed("alibi", "snail", "slow")
    let dump = try shell("/usr/bin/sqlite3", [office.databasePath, ".dump"], in: office)
    let removed =
      "suspect removed: Soloman the Snail (id 2) (its cascade removes here: Soloman the Snail:"
      + " alibi 'slow')"

    for policy in ["fail", "skip"] {
      let outcome = office.run("changes", "apply", file, "--on-conflict", policy)
      if policy == "fail" {
        #expect(outcome.status == 65)
        #expect(outcome.standardOutput == "conflict (cascade): \(removed)\n")
      } else {
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(
          outcome.standardOutput
            == "Applied \(file): 0 of 3 change(s) written (0 replaced), 3 skipped.\n"
            + "skipped (cascade): \(removed)\n"
            + "skipped (dependency): Soloman the Snail: favourite removed: Elstar Apple"
            + " (depends on the skipped suspect removed: Soloman the Snail (id 2))\n"
            + "skipped (dependency): Soloman the Snail: favourite removed: Flavor King Plum"
            + " (depends on the skipped suspect removed: Soloman the Snail (id 2))\n")
      }
      // Nothing written but the skip's history entry.
      #expect(try office.suspect("snail")["alibi"] as? String == "slow")
      #expect(
        try shell("/usr/bin/sqlite3", [office.databasePath, ".dump"], in: office)
          .components(separatedBy: "\n").filter { !$0.contains("history_") }
          == dump.components(separatedBy: "\n").filter { !$0.contains("history_") })
    }

    let replace = office.succeed("changes", "apply", file, "--on-conflict", "replace")
    #expect(
      replace
        == "Applied \(file): 3 of 3 change(s) written (1 replaced), 0 skipped.\n"
        + "replaced (cascade): \(removed)\n")
    expectFailure(office.run("show", "snail"), status: 65)
  }

  /// A changeset taken with other tools holds every table the case file has: the history's,
  /// the search index's, its queue. Applying those would write foreign history rows or
  /// overwrite the office's change sets: refused whole, naming the tables.
  @Test func aSessionChangesetOfEveryTableIsRefusedWholeNamingTheTables() throws {
    let (office, laptop, base) = try makeCopies()
    let raw = laptop.directory.appendingPathComponent("session.bin").path
    // The sqlite3 shell's session, attached to every table (no filter).
    try shell(
      "/usr/bin/sqlite3",
      [
        laptop.databasePath, ".session open main s", ".session attach *",
        "INSERT INTO suspicion_levels (animal_id, level) VALUES (3, 0.5);",
        ".session changeset \(raw)",
      ], in: laptop)
    try expectRefusedWhole(raw, office: office, laptop: laptop, base: base)
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqldiff")))
  func aSqldiffChangesetIsRefusedWholeNamingTheTables() throws {
    let (office, laptop, base) = try makeCopies()
    laptop.succeed("suspect", "dove", "0.5")
    laptop.succeed("animal", "remove", "snail")
    let raw = laptop.directory.appendingPathComponent("sqldiff.bin").path
    try shell("/usr/bin/sqldiff", ["--changeset", raw, base, laptop.databasePath], in: laptop)
    // Removing the snail took its words out of the search index, which every write keeps current.
    try expectRefusedWhole(
      raw, office: office, laptop: laptop, base: base,
      tables: "history_change_sets, history_changes, history_seals, search_index_content,"
        + " search_index_data, search_index_docsize, search_index_idx")

    // sqldiff limited to a case table makes a changeset that applies.
    try shell(
      "/usr/bin/sqldiff",
      [
        "--changeset", raw, "--table", "suspicion_levels", base,
        laptop.databasePath,
      ], in: laptop)
    let file = try wrap(raw, laptop: laptop, base: base)
    #expect(office.succeed("changes", "apply", file) == "Applied \(file): 1 change(s).\n")
    #expect(number(try office.suspect("dove")["suspicion_level"]) == 0.5)
  }

  /// A changeset of a case table's name with other columns (taken on another tool's file):
  /// SQLite would skip its changes without a word, and the apply would report them written.
  @Test func aChangesetOfACaseTableOfAnotherShapeIsRefused() throws {
    let (office, laptop, base) = try makeCopies()
    let other = laptop.directory.appendingPathComponent("other.sqlite").path
    let raw = laptop.directory.appendingPathComponent("other.bin").path
    try shell(
      "/usr/bin/sqlite3",
      [
        other,
        "CREATE TABLE alibis (animal_id INTEGER PRIMARY KEY, statement TEXT, witness TEXT);",
        ".session open main s", ".session attach alibis",
        "INSERT INTO alibis VALUES (3, 'On the roof.', 'Miko');", ".session changeset \(raw)",
      ], in: laptop)
    let file = try wrap(raw, laptop: laptop, base: base)
    expectFailure(
      office.run("changes", "apply", file), status: 65,
      messageContains: "\(file) changes table alibis with 3 column(s) or another primary key"
        + " than the database's table (2 column(s)) (nothing applied)")
    #expect(try office.suspect("dove")["alibi"] as? String == "")
  }

  /// Applies nothing, names the foreign tables, and leaves the office's file as it was.
  private func expectRefusedWhole(
    _ raw: String, office: CLITestCase, laptop: CLITestCase, base: String,
    tables: String = "history_change_sets, history_changes"
  ) throws {
    let file = try wrap(raw, laptop: laptop, base: base)
    let before = try shell("/usr/bin/sqlite3", [office.databasePath, ".dump"], in: office)
    for policy in ["fail", "skip", "replace"] {
      let refused = office.run("changes", "apply", file, "--on-conflict", policy)
      expectFailure(
        refused, status: 65,
        messageContains: "\(file) changes table(s) \(tables), which are not case tables")
      #expect(refused.standardError.contains("(nothing applied)"))
    }
    #expect(try shell("/usr/bin/sqlite3", [office.databasePath, ".dump"], in: office) == before)
  }

  /// Raw changeset bytes as a changeset file, with the header `changes export` writes.
  private func wrap(_ raw: String, laptop: CLITestCase, base: String) throws -> String {
    let header = try #require(
      laptop.succeed("changes", "export", "--base", base).split(separator: "\n").first)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: raw))
    let file = raw + ".changes"
    try Data(
      (header + "\n" + bytes.base64EncodedString(options: [.lineLength76Characters]) + "\n")
        .utf8
    ).write(to: URL(fileURLWithPath: file))
    return file
  }

  /// Runs another client's tool; returns its stdout.
  @discardableResult
  private func shell(_ tool: String, _ arguments: [String], in cli: CLITestCase) throws -> String {
    let result = try ChildProcess(
      tool, arguments, environment: ["PATH": "/usr/bin:/bin"], directory: cli.directory
    ).wait()
    #expect(result.status == 0, "\(tool): \(result.standardError)")
    return result.standardOutput
  }

  @Test func filesThatAreNotChangesetsOrForAnotherSchemaAreRefused() throws {
    let (office, _, base) = try makeCopies()
    let bad = office.directory.appendingPathComponent("bad.changes").path
    try Data("SQLite format 3\u{0}".utf8).write(to: URL(fileURLWithPath: bad))
    office.expectRefusal(
      ["changes", "apply", bad], status: 65, messageContains: "is not a changeset")
    office.expectRefusal(
      ["changes", "show", bad], status: 65, messageContains: "is not a changeset")
    let other = office.directory.appendingPathComponent("other.changes").path
    try Data("fruit-inspectors changeset 1 schema 3\n".utf8).write(to: URL(fileURLWithPath: other))
    office.expectRefusal(
      ["changes", "apply", other], status: 65, messageContains: "is at schema version 3")
    office.expectRefusal(["changes", "apply", "/nonexistent.changes"], status: 66)
    office.expectRefusal(["diff", "/etc/hostname"], status: 66)
    office.expectRefusal(["changes", "export"], status: 64)
    _ = base
  }
}
