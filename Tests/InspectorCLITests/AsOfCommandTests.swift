import Foundation
import SQLiteKit
import Testing

@testable import CaseStore
@testable import InspectorCLI

/// `show <animal> --as-of TIME` and `list --as-of TIME` (docs/history.md "As of"), end to end.
@Suite("As-of views")
struct AsOfCommandTests {
  @Test func showAndListBeforeAndAfterARemoval() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("suspect", "crow", "0.9")
    cli.succeed("alibi", "crow", "In the nest.")
    let beforeRemoval = try latestChangeSet(cli)
    let shownBefore = cli.succeed("show", "crow", "--json")
    let listedBefore = cli.succeed("list", "--json")
    let at = try #require(
      try jsonArray(cli.succeed("history", "--json", "--limit", "1")).first?["at"] as? String)
    cli.succeed("animal", "remove", "crow")
    let removal = try latestChangeSet(cli)
    cli.succeed("suspect", "dove", "0.5")

    // Before the removal, by change set id and by time: as it was shown then.
    #expect(cli.succeed("show", "crow", "--as-of", "\(beforeRemoval)", "--json") == shownBefore)
    #expect(cli.succeed("list", "--as-of", "\(beforeRemoval)", "--json") == listedBefore)
    #expect(cli.succeed("show", "Catie", "--as-of", at, "--json") == shownBefore)
    let crow = try jsonObject(cli.succeed("show", "id:4", "--as-of", at, "--json"))
    #expect(number(crow["suspicion_level"]) == 0.9)
    #expect(crow["alibi"] as? String == "In the nest.")
    #expect(
      crow["favorite_fruits"] as? [String]
        == ["Pink Pearl Apple", "Golden Nectar Plum", "Hauer Pippin Apple"])

    // After it: gone then as now, and the dove's later change is not there yet.
    expectFailure(
      cli.run("show", "crow", "--as-of", "\(removal)"), status: 65,
      messageContains: "no suspect matches 'crow'")
    let after = try jsonArray(cli.succeed("list", "--as-of", "\(removal)", "--json"))
    #expect(after.count == 9)
    #expect(!after.contains { $0["species"] as? String == "Crow" })
    #expect(number(after.first { $0["species"] as? String == "Dove" }?["suspicion_level"]) == 0)
    #expect(
      cli.succeed("list", "--as-of", "2999-01-01T00:00", "--json") == cli.succeed("list", "--json"))
    let table = cli.succeed("list", "--as-of", "\(beforeRemoval)")
    #expect(
      table.contains(
        "Catie      Crow      Pink Pearl Apple, Golden Nectar Plum, Hauer Pippin Apple"))

    // Before the first change set nothing is known: said so, with where the history starts,
    // never an empty case or "no suspect matches".
    let first = try #require(
      try jsonArray(cli.succeed("history", "--json")).last?["at"] as? String)
    for command in [["show", "crow"], ["list"]] {
      for point in ["2000-01-01T00:00", "2000-01-01T00:00Z", "0"] {
        expectFailure(
          cli.run(command + ["--as-of", point]), status: 65,
          messageContains: "'\(point)' is before the history: it starts at \(first)"
            + " (change set 1)")
      }
    }
    expectFailure(
      cli.run("list", "--as-of", "99"), status: 65, messageContains: "no change set with id '99'")
    expectFailure(cli.run("show", "crow", "--as-of", "yesterday"), status: 65)
    #expect(cli.succeed("show", "--help").contains("--as-of <time>"))
    #expect(cli.succeed("list", "--help").contains("--as-of <time>"))
  }

  @Test func aFileMigratedFromSchema6IsRightForRowsOlderThanTheHistory() throws {
    let cli = try CLITestCase()
    let connection = try Connection(path: cli.databasePath, mode: .readWriteCreate)
    try CaseDatabase.migrator.migrate(connection, upTo: 6)
    try connection.execute(
      """
      INSERT INTO fruits (name, color) VALUES ('Pink Pearl Apple', 'pink'), ('Elstar Apple', 'yellow');
      INSERT INTO animals (name, species, paw_size, emoji) VALUES ('Catie', 'Crow', 'small', NULL),
        ('Ding', 'Dove', 'small', NULL);
      INSERT INTO favorite_fruits (animal_id, fruit_id, position) VALUES (1, 1, 0), (1, 2, 1);
      INSERT INTO suspicion_levels (animal_id, level) VALUES (1, 0.9);
      INSERT INTO alibis (animal_id, statement) VALUES (1, 'Asleep.');
      """)
    #expect(cli.run("list").status == 65)
    cli.succeed("migrate", "up")
    let before = cli.succeed("list", "--json")
    let shown = cli.succeed("show", "crow", "--json")
    cli.succeed("suspect", "crow", "0.1")
    cli.succeed("animal", "remove", "crow")

    // Change set 1 is the migration's snapshot.
    let snapshot = try jsonArray(cli.succeed("history", "--json")).last
    #expect(snapshot?["id"] as? Int == 1)
    #expect(snapshot?["note"] as? String == "snapshot at migration")
    #expect(cli.succeed("list", "--as-of", "1", "--json") == before)
    #expect(cli.succeed("show", "crow", "--as-of", "1", "--json") == shown)
    let crow = try jsonObject(shown)
    #expect(number(crow["suspicion_level"]) == 0.9)
    #expect(crow["alibi"] as? String == "Asleep.")
    #expect(crow["favorite_fruits"] as? [String] == ["Pink Pearl Apple", "Elstar Apple"])
    #expect(
      number(
        try jsonObject(cli.succeed("show", "crow", "--as-of", "2", "--json"))["suspicion_level"])
        == 0.1)
  }

  /// The id of the newest change set.
  /// Another client's `UPDATE OR REPLACE` that takes another suspect's species removes that
  /// suspect without a trace (no trigger sees it): the history then holds two crows at once,
  /// and rebuilding it says so as a disagreement naming `check`, not SQLite's raw message.
  @Test func aHistoryHoldingRowsTheSchemaRefusesIsADisagreementNotARawError() throws {
    let cli = try CLITestCase(seeded: true)
    try RestoreSafetyTests.shell(
      cli.databasePath, "UPDATE OR REPLACE animals SET species = 'Crow' WHERE id = 1;", in: cli)
    let changeSet = try latestChangeSet(cli)
    expectFailure(
      cli.run("list", "--as-of", "\(changeSet)"), status: 65,
      messageContains: "the history disagrees with the case: after change set \(changeSet) it"
        + " holds rows of animals that break a rule of the schema (UNIQUE constraint failed:"
        + " animals.species_key)")
  }

  /// The sqlite3 shell's VACUUM lists the search index's own tables before the index in
  /// `sqlite_schema`; a case rebuilt as of a point creates the index first and still answers,
  /// the same as before the VACUUM.
  @Test func asOfAnswersAfterTheShellVacuumsTheFile() throws {
    let cli = try CLITestCase(seeded: true)
    let seeded = try latestChangeSet(cli)
    cli.succeed("alibi", "crow", "In the nest.")
    cli.succeed("animal", "remove", "cat")
    let list = cli.succeed("list", "--as-of", "\(seeded)", "--json")
    let crow = cli.succeed("show", "crow", "--as-of", "\(seeded)", "--json")
    _ = try RestoreSafetyTests.shell(cli.databasePath, "VACUUM", in: cli)
    let order = try RestoreSafetyTests.shell(
      cli.databasePath,
      "SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_schema"
        + " WHERE name GLOB 'search_index*' ORDER BY rowid)", in: cli)
    #expect(order.hasPrefix("search_index_"), "\(order)")
    #expect(cli.succeed("list", "--as-of", "\(seeded)", "--json") == list)
    #expect(cli.succeed("show", "crow", "--as-of", "\(seeded)", "--json") == crow)
    #expect(list.contains("\"Miko\""))
  }

  private func latestChangeSet(_ cli: CLITestCase) throws -> Int64 {
    let sets = try jsonArray(cli.succeed("history", "--json", "--limit", "1"))
    return Int64(try #require(sets.first?["id"] as? Int))
  }
}

/// `show id:N --as-of` rebuilds only that suspect (docs/history.md "As of"): the same answer
/// as the whole case rebuilt, from that suspect's own rows alone.
extension AsOfCommandTests {
  @Test func showByIDRebuildsOnlyThatSuspectAndAnswersTheSame() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("suspect", "crow", "0.9")
    cli.succeed("alibi", "crow", "In the nest.")
    let then = try latestChangeSet(cli)
    let shownThen = cli.succeed("show", "crow", "--json")
    cli.succeed("favorite", "remove", "crow", "Golden Nectar Plum")
    cli.succeed("animal", "remove", "crow")
    #expect(cli.succeed("show", "id:4", "--as-of", "\(then)", "--json") == shownThen)

    // What the rebuilt case holds: the crow, its favourites and interview, the fruits they name.
    let database = try CaseDatabase(path: cli.databasePath, access: .readOnly)
    let rebuilt = try database.read { try $0.history.rebuiltCase(asOf: then, suspect: 4) }
    let counts = try ["animals", "favorite_fruits", "suspicion_levels", "alibis", "fruits"].map {
      try rebuilt.connection.scalar("SELECT count(*) FROM \($0)")?.integerValue
    }
    #expect(counts == [1, 3, 1, 1, 3])
    #expect(
      try rebuilt.connection.scalar("SELECT group_concat(id) FROM animals")?.textValue == "4")
  }
}

/// `list --as-of N` answers byte for byte what `list` answers on a copy of the file taken right
/// after change set N, whatever the filters, order and format; and the case it lists (rebuilt
/// in bulk from the file's history) holds the same rows as the one rebuilt row by row.
extension AsOfCommandTests {
  @Test func listAsOfEqualsListOnACopyTakenThen() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("suspect", "crow", "0.9")
    cli.succeed("alibi", "crow", "In the nest.")
    cli.succeed(
      "animal", "add", "--name", "Zoë", "--species", "Fox", "--paw", "small", "--fruit",
      "Pink Pearl Apple")
    cli.succeed("suspect", "fox", "0.4")
    cli.succeed("animal", "add", "--name", "Émile", "--species", "Owl", "--paw", "small")
    // Another client's text beyond ASCII: SQL's keys, which a write folds as inspector does.
    try RestoreSafetyTests.shell(
      cli.databasePath, "UPDATE animals SET name = 'Émile' WHERE species = 'Dove';", in: cli)
    // inspector's next write folds that key, as the rebuilt case's is folded.
    cli.succeed("alibi", "fish", "Under the bridge.")
    let then = try latestChangeSet(cli)
    let copy = try CLITestCase()
    try Connection(path: cli.databasePath).backup(
      into: Connection(path: copy.databasePath, mode: .readWriteCreate))

    // Later changes the listing then must not show.
    cli.succeed("suspect", "crow", "0.1")
    cli.succeed("favorite", "remove", "crow", "Golden Nectar Plum")
    cli.succeed("animal", "remove", "cat")
    cli.succeed("alibi", "dove", "At the pond.")
    cli.succeed("animal", "edit", "crow", "--name", "Corvina")

    let listings: [[String]] = [
      [], ["--json"], ["--format", "csv"], ["--format", "ndjson"], ["--sort", "level"],
      ["--sort", "name", "--reverse", "--json"],
      ["--min-level", "0.3", "--sort", "level", "--format", "csv"],
      ["--favorite", "Pink Pearl Apple", "--sort", "species", "--reverse"],
      ["--no-alibi", "--paw", "small", "--limit", "3", "--offset", "1", "--json"],
      ["--awake-at", "03:00", "--sort", "name"],
    ]
    for options in listings {
      let expected = copy.run(["list"] + options)
      let asOf = cli.run(["list", "--as-of", "\(then)"] + options)
      #expect(expected.status == 0, "\(options): \(expected.standardError)")
      #expect(asOf.status == 0, "\(options): \(asOf.standardError)")
      #expect(asOf.standardOutput == expected.standardOutput, "\(options)")
    }
    #expect(cli.run(["list", "--as-of", "\(then)"]).standardOutput.contains("Émile"))
    for name in ["Zoë", "zoe", "renard", "dove", "Catie", "10"] {
      #expect(
        cli.succeed("show", name, "--as-of", "\(then)", "--json")
          == copy.succeed("show", name, "--json"), "\(name)")
    }
    // A word that names several suspects then (two Émiles), or none, fails as it did then.
    for name in ["emile", "corvina"] {
      let asOf = cli.run("show", name, "--as-of", "\(then)")
      let expected = copy.run("show", name)
      #expect(expected.status == 65)
      #expect(asOf.status == expected.status, "\(name)")
      #expect(asOf.standardError == expected.standardError, "\(name)")
    }

    // The bulk rebuild (from the file) and the row-by-row one (from an in-memory copy) hold
    // the same rows, derived columns included.
    let database = try CaseDatabase(path: cli.databasePath, access: .readOnly)
    let bulk = try database.read { try $0.history.rebuiltCase(asOf: then) }
    let inMemory = try CaseDatabase(inMemoryCopyOf: database)
    let rowByRow = try inMemory.read { try $0.history.rebuiltCase(asOf: then) }
    for table in [
      "animals", "fruits", "favorite_fruits", "alibis", "sleep_schedules", "suspicion_levels",
      "incidents",
    ] {
      let expected = try rows(of: table, in: rowByRow)
      #expect(try rows(of: table, in: bulk) == expected, "\(table)")
      #expect(!expected.isEmpty || ["sleep_schedules", "incidents"].contains(table), "\(table)")
    }
    #expect(
      try bulk.connection.scalar("SELECT name_key FROM animals WHERE species = 'Fox'")?.textValue
        == "zoe")
  }

  /// Every row of `table` in `database`, every column, in key order.
  /// Both ways of rebuilding in bulk (docs/history.md "As of"): a point with most of the
  /// history after it is rebuilt from the history alone; a late one copies today's
  /// favourites, interviews and levels and replaces the rows changed since (removed, changed,
  /// added after the point). Each lists what `list` lists on a copy taken then, and holds the
  /// rows the row-by-row rebuild holds.
  @Test func listAsOfEarlyAndLatePointsEqualsListOnCopiesTakenThen() throws {
    let cli = try CLITestCase(seeded: true)
    let early = try latestChangeSet(cli)
    let earlyCopy = try CLITestCase()
    try Connection(path: cli.databasePath).backup(
      into: Connection(path: earlyCopy.databasePath, mode: .readWriteCreate))
    // Far more history after the early point than before it.
    cli.succeed(
      "sql", "--write",
      """
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150)
      INSERT INTO animals (name, species, paw_size) SELECT 'Pip ' || i, 'Species ' || i, 'large'
      FROM n;
      INSERT INTO suspicion_levels (animal_id, level)
      SELECT id, 0.5 FROM animals WHERE species GLOB 'Species *';
      INSERT INTO alibis (animal_id, statement) SELECT id, 'Out.' FROM animals
      WHERE species GLOB 'Species 1*';
      """)
    cli.succeed("suspect", "crow", "0.9")
    cli.succeed("alibi", "crow", "In the nest.")
    let late = try latestChangeSet(cli)
    let lateCopy = try CLITestCase()
    try Connection(path: cli.databasePath).backup(
      into: Connection(path: lateCopy.databasePath, mode: .readWriteCreate))
    // A few changes after the late point: removed, changed and added rows of the copied tables.
    cli.succeed("favorite", "remove", "crow", "Golden Nectar Plum")
    cli.succeed("favorite", "add", "dove", "Golden Nectar Plum")
    cli.succeed("suspect", "crow", "0.2")
    cli.succeed("suspect", "species 3", "0.7")
    cli.succeed("alibi", "crow", "At the pond.")
    cli.succeed("alibi", "species 150", "Home.")
    cli.succeed("animal", "remove", "species 12")

    let database = try CaseDatabase(path: cli.databasePath, access: .readOnly)
    let inMemory = try CaseDatabase(inMemoryCopyOf: database)
    for (point, copy) in [(early, earlyCopy), (late, lateCopy)] {
      // In id order (no index of other orders is built), and sorted.
      for options in [["--json"], ["--sort", "level", "--format", "csv"], ["--sort", "name"]] {
        let expected = copy.run(["list"] + options)
        let asOf = cli.run(["list", "--as-of", "\(point)"] + options)
        #expect(expected.status == 0 && asOf.status == 0, "\(point) \(options)")
        #expect(asOf.standardOutput == expected.standardOutput, "\(point) \(options)")
      }
      let bulk = try database.read { try $0.history.rebuiltCase(asOf: point) }
      let rowByRow = try inMemory.read { try $0.history.rebuiltCase(asOf: point) }
      for table in ["animals", "favorite_fruits", "alibis", "suspicion_levels"] {
        #expect(try rows(of: table, in: bulk) == rows(of: table, in: rowByRow), "\(point) \(table)")
      }
    }
    let listedThen = try jsonArray(cli.succeed("list", "--as-of", "\(late)", "--json"))
    #expect(listedThen.count == 160)  // the 10 seeded suspects and the 150 added
  }

  private func rows(of table: String, in database: CaseDatabase) throws -> [[SQLiteValue]] {
    let statement = try database.connection.prepare("SELECT * FROM \(table) ORDER BY 1, 2")
    var rows: [[SQLiteValue]] = []
    while try statement.step() { rows.append(statement.row()) }
    return rows
  }
}
