import CaseStore
import Foundation
import SQLiteKit
import Testing

@testable import InspectorCLI

/// What a new-user session found other clients could still do: fruits that are one name ignoring
/// case, keys written by hand with the mark cleared, a suspect whose id changes, favourites of a
/// deleted fruit, coordinates and times outside the domain. Each is now refused, recomputed, or
/// shown and named.
@Suite("Records written by other clients, the hard cases")
struct OtherClientRecordTests {
  // MARK: - Fruits that are one name

  @Test(arguments: [
    ("ΜΗΛΟ", "μηλο", "ΜΗΛΟ"), ("P\u{EA}che", "Pe\u{302}che", "p\u{EA}che"),
  ])
  func fruitsThatAreOneNameAreAmbiguousEverywhere(first: String, second: String, typed: String)
    throws
  {
    let cli = try CLITestCase.seeded(
      writtenByAnotherClient:
        """
        INSERT INTO fruits (name, color) VALUES ('\(first)', 'red');
        INSERT INTO fruits (name, color) VALUES ('\(second)', 'green');
        """)
    let before = cli.snapshot()
    for arguments in [
      ["fruit", "remove", typed], ["favorite", "add", "id:2", typed],
      ["incident", "add", "--fruit", typed, "--at", "10:00"],
    ] {
      let outcome = cli.run(arguments)
      expectFailure(outcome, status: 65, messageContains: "matches several fruits")
      #expect(
        outcome.standardError.contains("(id 20)") && outcome.standardError.contains("(id 21)"))
    }
    #expect(cli.snapshot() == before)
  }

  // MARK: - Keys written by hand

  /// A wrong key written by hand with the text it claims to be folded from: SQL vouches for
  /// the key of ASCII text, so it is recomputed whatever `species_folded_from` says.
  @Test func aWrongASCIIKeyIsRecomputedEvenWithAFoldedFromWrittenWithIt() throws {
    let cli = try CLITestCase.seeded(
      writtenByAnotherClient:
        "UPDATE animals SET species_key = 'x-crow', species_folded_from = 'Crow' WHERE id = 4")
    let writer = try Connection(path: cli.databasePath)
    #expect(
      try writer.scalar(
        "SELECT species_key || '/' || quote(species_folded_from) FROM animals WHERE id = 4")?
        .textValue == "crow/NULL")
    // The crow's key is back, so taking it for the fish is refused by the unique index.
    #expect(throws: SQLiteError.self) {
      try writer.execute(
        "UPDATE animals SET species_key = 'crow', species_folded_from = 'Fish' WHERE id = 1")
    }
    #expect(try cli.suspect("crow")["name"] as? String == "Catie")
    #expect(try cli.suspect("fish")["name"] as? String == "Fabrizio")
    #expect(cli.run("check").status == 0)
  }

  /// Text SQL cannot fold: a key written by hand with the text it claims to be folded from is
  /// believed by the index, but no look-up acts on a row whose own text does not match the
  /// word, and `check` reports the key.
  @Test func aKeyWrittenByHandNeverMakesARowAnswerForAnotherWord() throws {
    let cli = try CLITestCase.seeded(
      writtenByAnotherClient:
        """
        INSERT INTO animals (name, species, paw_size) VALUES ('Sig', 'ΣΙΓΜΑ', 'small');
        UPDATE animals SET species_key = 'snake', species_folded_from = 'ΣΙΓΜΑ',
          name_key = 'snakey', name_folded_from = 'Sig'
        WHERE id = 11;
        """)
    cli.expectRefusal(["show", "snake"], status: 65, messageContains: "no suspect matches")
    cli.expectRefusal(["animal", "remove", "snakey"], status: 65)
    #expect(
      cli.failedCheckRows().contains {
        $0.hasPrefix("fault,derived_column,animals,id 11,")
      })
  }

  // MARK: - The mirrored level

  @Test func aSuspectWhoseIdChangesKeepsATrueMirroredLevel() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("suspect", "id:2", "0.7")
    let writer = try Connection(path: cli.databasePath)
    try writer.execute("PRAGMA foreign_keys = OFF; UPDATE animals SET id = 99 WHERE id = 2")
    #expect(
      try writer.scalar("SELECT suspicion_level FROM animals WHERE id = 99")?.doubleValue == 0.0)
    let ranking = try jsonArray(cli.succeed("rank", "--limit", "2", "--json"))
    #expect(ranking.map { $0["name"] as? String } == ["Catie", "Cornelius"])
  }

  // MARK: - Shown and flagged, or named

  @Test func favoritesOfADeletedFruitAreShownAndFlagged() throws {
    let cli = try CLITestCase.seeded(
      writtenByAnotherClient:
        "PRAGMA foreign_keys = OFF; DELETE FROM fruits WHERE name = 'Pink Pearl Apple'")
    // JSON carries null for it (a placeholder is never data); the table shows the placeholder.
    let crow = try #require(try cli.suspect("crow")["favorite_fruits"] as? [Any])
    #expect(crow.first is NSNull)
    #expect(crow.dropFirst().map { $0 as? String } == ["Golden Nectar Plum", "Hauer Pippin Apple"])
    #expect(cli.succeed("list").contains("(missing fruit id 15), Golden Nectar Plum"))
    #expect(
      cli.failedCheckRows().contains(
        "fault,foreign_key_check,favorite_fruits,\"animal_id 3, fruit_id 15\",refers to a row"
          + " of fruits that does not exist,remove the row or restore the missing fruits row"))
  }

  @Test(arguments: [
    (
      "UPDATE incidents SET latitude = 200, longitude = -999 WHERE id = 1",
      "incidents id 1 holds latitude, longitude 200.0, -999.0, which is not degrees from -90"
        + " to 90 and -180 to 180, both or neither",
      "latitude 200.0 and longitude -999.0 are not degrees"
    ),
    (
      "UPDATE incidents SET longitude = NULL WHERE id = 1",
      "incidents id 1 holds latitude, longitude 37.334371, NULL, which is not degrees from -90"
        + " to 90 and -180 to 180, both or neither",
      "latitude 37.334371 and longitude NULL are not degrees"
    ),
    (
      "UPDATE incidents SET occurred_at = '2026-02-30T10:00' WHERE id = 1",
      "incidents id 1 holds occurred_at '2026-02-30T10:00', which is not a date and time"
        + " YYYY-MM-DDTHH:MM",
      "occurred_at '2026-02-30T10:00' is not a date and time"
    ),
  ])
  func anIncidentValueOutsideTheDomainIsNamed(sql: String, error: String, finding: String)
    throws
  {
    let cli = try CLITestCase.seeded(
      writtenByAnotherClient: "PRAGMA ignore_check_constraints = ON; \(sql)")
    let outcome = cli.run("incident", "show", "1")
    expectFailure(outcome, status: 65)
    #expect(lines(outcome.standardError).first == "inspector: error: " + error)
    let check = cli.run("check")
    #expect(check.status == 65)
    #expect(check.standardOutput.contains(finding))
  }

  @Test func aStoredSleepTimeOutsideTheDomainIsNamed() throws {
    let cli = try CLITestCase.seeded(
      writtenByAnotherClient:
        """
        PRAGMA ignore_check_constraints = ON;
        INSERT INTO sleep_schedules (animal_id, sleep_at, wake_at) VALUES (4, '25:99', '06:30');
        """)
    let outcome = cli.run("show", "crow")
    expectFailure(outcome, status: 65)
    #expect(
      lines(outcome.standardError) == [
        "inspector: error: sleep_schedules id 4 holds sleep_at '25:99', which is not a time HH:MM",
        "hint: see 'inspector check' for every such value",
      ])
  }

  // MARK: - check keeps going

  @Test func checkListsWhatItCanWhenATableIsMissing() throws {
    let cli = try CLITestCase.seeded(
      writtenByAnotherClient: "PRAGMA foreign_keys = OFF; DROP TABLE incidents")
    let outcome = cli.run("check", "--json")
    #expect(outcome.status == 65)
    let findings = try #require(
      try jsonObject(outcome.standardOutput)["findings"] as? [[String: Any]])
    let messages = findings.compactMap { $0["message"] as? String }
    #expect(messages.contains("table incidents is missing"))
    #expect(messages.contains { $0.hasPrefix("could not check the rows of incidents:") })
  }

  /// A dropped parent table, or the migration records, must not stop check from listing the rest.
  @Test func checkListsWhatItCanWhenFruitsOrTheMigrationRecordsAreGone() throws {
    let fruits = try CLITestCase.seeded(
      writtenByAnotherClient: "PRAGMA foreign_keys = OFF; DROP TABLE fruits")
    let first = fruits.run("check", "--json")
    #expect(first.status == 65)
    let found = try #require(try jsonObject(first.standardOutput)["findings"] as? [[String: Any]])
    #expect(found.contains { $0["message"] as? String == "table fruits is missing" })

    let records = try CLITestCase.seeded(
      writtenByAnotherClient:
        """
        DROP TABLE schema_migrations;
        PRAGMA ignore_check_constraints = ON;
        INSERT INTO suspicion_levels (animal_id, level) VALUES (1, 3.0);
        """)
    let rows = records.failedCheckRows()
    #expect(
      rows.contains {
        $0.hasPrefix("fault,schema,schema_migrations,,table schema_migrations is missing")
      })
    #expect(rows.contains { $0.hasPrefix("fault,domain,suspicion_levels,animal_id 1,level 3.0") })
    #expect(!rows.contains { $0.contains("is pending") })
  }

  @Test func aTriggerOfAnotherToolOnOurTablesIsAFault() throws {
    let rows = try CLITestCase.failedCheckRows(
      afterAnotherClientRan:
        """
        CREATE VIRTUAL TABLE animals_fts USING fts5 (name, species, content = 'animals');
        CREATE TRIGGER animals_ai AFTER INSERT ON animals BEGIN
          INSERT INTO animals_fts (rowid, name, species) VALUES (new.id, new.name, new.species);
        END;
        """)
    #expect(
      rows.contains(
        "fault,schema,animals,,trigger animals_ai on animals is not inspector's: it runs inside"
          + " inspector's writes,DROP TRIGGER animals_ai (sqlite-utils: disable-fts)"))
  }

  // MARK: - Re-folding and foreign files

  @Test func anyWriteRefoldsWhatOtherClientsWrote() throws {
    let cli = try CLITestCase.seeded(
      writtenByAnotherClient:
        "INSERT INTO animals (name, species, paw_size) VALUES ('\u{C1}bel', '\u{3A9}mega', 'small')"
    )
    let writer = try Connection(path: cli.databasePath)
    let keys = "SELECT species_key || '/' || quote(species_folded_from) FROM animals WHERE id = 11"
    #expect(try writer.scalar(keys)?.textValue == "\u{3A9}mega/NULL")
    cli.succeed("alibi", "fish", "At sea")
    #expect(try writer.scalar(keys)?.textValue == "\u{3C9}mega/'\u{3A9}mega'")
  }

  @Test(arguments: [
    ["init"], ["init", "--seed"], ["migrate", "up"], ["demo"], ["list"], ["show", "crow"],
    ["suspect", "crow", "0.5"],
  ])
  func anotherProgramsDatabaseIsNeverTurnedIntoACaseFile(arguments: [String]) throws {
    let cli = try CLITestCase()
    let writer = try Connection(path: cli.databasePath, mode: .readWriteCreate, walMode: false)
    try writer.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
    let before = try Data(contentsOf: URL(fileURLWithPath: cli.databasePath))
    let outcome = cli.run(arguments)
    #expect(outcome.status == 65)
    #expect(
      lines(outcome.standardError).first
        == "inspector: error: \(cli.databasePath) is not a Fruit Inspectors case database (no"
        + " application_id and no migrations)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: cli.databasePath)) == before)
    #expect(!FileManager.default.fileExists(atPath: cli.databasePath + "-wal"))
  }
}
