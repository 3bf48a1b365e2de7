import Foundation
import Testing

@testable import InspectorCLI

/// `inspector revert` (docs/history.md "Revert"): one suspect back to how it stood at a point
/// of the history, as one new change set, through the repositories' own writes; refused, with
/// the file byte for byte as it was, when that cannot be.
@Suite("Revert command")
struct RevertCommandTests {
  /// The case file's bytes and its `-wal`'s (empty when there is none).
  func fileBytes(_ cli: CLITestCase) -> [Data] {
    [cli.databasePath, cli.databasePath + "-wal"].map {
      FileManager.default.contents(atPath: $0) ?? Data()
    }
  }

  /// The number of change sets the history holds.
  func changeSetCount(_ cli: CLITestCase) throws -> Int {
    let rows = try jsonArray(
      cli.succeed("sql", "SELECT count(*) AS n FROM history_change_sets", "--json"))
    return try #require(rows.first?["n"] as? Int)
  }

  /// Runs `arguments` (expected to be refused with exit 65 and `message`) and expects the case
  /// file byte for byte as it was.
  func expectRefusedUnchanged(
    _ cli: CLITestCase, _ arguments: [String], message: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let before = fileBytes(cli)
    expectFailure(
      cli.run(arguments), status: 65, messageContains: message, sourceLocation: sourceLocation)
    #expect(fileBytes(cli) == before, "the file changed", sourceLocation: sourceLocation)
  }

  /// The seed's Catie the Crow as `show --json` prints it.
  static let seedCrow: [String: String] = [
    "name": "Catie", "species": "Crow", "paw_size": "small",
    "favorite_fruits": "Pink Pearl Apple, Golden Nectar Plum, Hauer Pippin Apple", "alibi": "",
    "sleep_schedule": "none", "suspicion_level": "0.0",
  ]

  /// The fields of ``seedCrow`` read from `show --json`.
  func crow(_ cli: CLITestCase, _ reference: String = "id:4") throws -> [String: String] {
    let shown = try cli.suspect(reference)
    let schedule = shown["sleep_schedule"] as? [String: Any]
    return [
      "name": shown["name"] as? String ?? "?", "species": shown["species"] as? String ?? "?",
      "paw_size": shown["paw_size"] as? String ?? "?",
      "favorite_fruits": (shown["favorite_fruits"] as? [String] ?? []).joined(separator: ", "),
      "alibi": shown["alibi"] as? String ?? "?",
      "sleep_schedule": schedule.map { "\($0["sleep"] ?? "")-\($0["wake"] ?? "")" } ?? "none",
      "suspicion_level": "\(shown["suspicion_level"] as? Double ?? -1)",
    ]
  }

  @Test func aSuspectGoesBackAndForthAsOneChangeSetEachTime() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("animal", "edit", "crow", "--name", "Cora", "--species", "Raven", "--paw", "large")
    cli.succeed("favorite", "move", "raven", "Hauer Pippin Apple", "--to", "1")
    cli.succeed("favorite", "remove", "raven", "Golden Nectar Plum")
    cli.succeed("favorite", "add", "raven", "Elstar Apple")
    cli.succeed("alibi", "raven", "In the oak.")
    cli.succeed("sleep", "raven", "--sleep", "21:00", "--wake", "05:00")
    cli.succeed("suspect", "raven", "0.8")
    let changed: [String: String] = [
      "name": "Cora", "species": "Raven", "paw_size": "large",
      "favorite_fruits": "Hauer Pippin Apple, Pink Pearl Apple, Elstar Apple",
      "alibi": "In the oak.", "sleep_schedule": "21:00-05:00", "suspicion_level": "0.8",
    ]
    #expect(try crow(cli) == changed)
    let sets = try changeSetCount(cli)
    #expect(sets == 8)

    let back = cli.succeed("revert", "raven", "--as-of", "1", "--as", "ann")
    #expect(
      back == "Reverted Catie the Crow (id 4) as it stood after change set 1, recorded as"
        + " change set 9.\n")
    #expect(try crow(cli) == Self.seedCrow)
    #expect(try changeSetCount(cli) == sets + 1)
    let recorded = try #require(try jsonArray(cli.succeed("history", "--json")).first)
    #expect(recorded["id"] as? Int == 9)
    #expect(recorded["actor"] as? String == "ann")
    #expect(recorded["note"] as? String == "revert of Catie the Crow (id 4) to change set 1")
    // The seed had no interview rows: the revert removed them rather than writing defaults.
    let rows = try jsonArray(
      cli.succeed(
        "sql", "--json",
        "SELECT (SELECT count(*) FROM alibis WHERE animal_id = 4)"
          + " + (SELECT count(*) FROM sleep_schedules WHERE animal_id = 4) AS n"))
    #expect(rows.first?["n"] as? Int == 0)

    // And forth again: the suspect as it stood after change set 8, by the time it was made.
    let at = try #require(
      try jsonArray(cli.succeed("history", "--json")).first { $0["id"] as? Int == 8 }?["at"]
        as? String)
    let forth = try jsonObject(
      cli.succeed("revert", "crow", "--as-of", at, "--note", "it was the raven", "--json"))
    #expect(forth["as_of"] as? Int == 8)
    #expect(forth["change_set"] as? Int == 10)
    #expect(forth["suspect"] as? Int == 4)
    #expect(forth["restored"] as? Bool == false)
    #expect(try crow(cli) == changed)
    #expect(
      try jsonArray(cli.succeed("history", "--json")).first?["note"] as? String
        == "it was the raven")

    // Already as it stood then: nothing is changed, no change set is left.
    let before = cli.snapshot()
    #expect(
      cli.succeed("revert", "raven", "--as-of", "8", "--format", "csv")
        == "suspect,as_of,change_set,restored\r\n4,8,,false\r\n")
    #expect(try changeSetCount(cli) == sets + 2)
    #expect(
      cli.succeed("revert", "raven", "--as-of", "8")
        == "Cora the Raven (id 4) already stands as it did after change set 8; nothing changed.\n")
    #expect(cli.snapshot() == before)
  }

  @Test func aRemovedSuspectComesBackUnderItsIdWithFavouritesAndInterview() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("alibi", "crow", "In the nest.")
    cli.succeed("suspect", "crow", "0.6")
    let kept = try crow(cli)
    cli.succeed("animal", "remove", "crow")
    cli.succeed("animal", "add", "--name", "Nia", "--species", "Newt", "--paw", "small")
    let back = cli.succeed("revert", "id:4", "--as-of", "3")
    #expect(
      back == "Brought back Catie the Crow (id 4) as it stood after change set 3, recorded as"
        + " change set 6.\n")
    #expect(try crow(cli) == kept)
    #expect(kept["alibi"] == "In the nest.")
    #expect(try cli.suspect("newt")["id"] as? Int == 11)
    #expect(try cli.suspect("crow")["id"] as? Int == 4)
  }

  @Test func aTakenSpeciesIsRefusedAndNothingChanges() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("animal", "edit", "dove", "--species", "Pigeon")
    cli.succeed("animal", "add", "--name", "Dot", "--species", "dove", "--paw", "small")
    expectRefusedUnchanged(
      cli, ["revert", "pigeon", "--as-of", "1"],
      message: "cannot revert Ding the Dove (id 3) to change set 1: a suspect of species 'Dove'"
        + " already exists")
    // Removed, with its species taken since: not brought back either.
    cli.succeed("animal", "remove", "crow")
    cli.succeed("animal", "add", "--name", "Cat", "--species", "CROW", "--paw", "small")
    expectRefusedUnchanged(
      cli, ["revert", "id:4", "--as-of", "1"],
      message: "cannot revert Catie the Crow (id 4) to change set 1: a suspect of species"
        + " 'Crow' already exists")
  }

  @Test func aFavouriteFruitRemovedSinceIsRefused() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("fruit", "add", "Durian", "--color", "yellow")
    cli.succeed("favorite", "add", "crow", "Durian")
    cli.succeed("favorite", "remove", "crow", "Durian")
    cli.succeed("fruit", "remove", "Durian")
    expectRefusedUnchanged(
      cli, ["revert", "crow", "--as-of", "3"],
      message: "cannot revert Catie the Crow (id 4) to change set 3: its favourite 'Durian'"
        + " (fruit id 20) no longer exists")
    // Before the favourite it works.
    cli.succeed("suspect", "crow", "0.5")
    cli.succeed("revert", "crow", "--as-of", "2")
    #expect(try crow(cli) == Self.seedCrow)
  }

  @Test func favouritesComeBackByFruitNotByTheirNameOfThen() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("favorite", "remove", "crow", "Pink Pearl Apple")
    cli.succeed("fruit", "edit", "Pink Pearl Apple", "--name", "Pink Lady")
    cli.succeed("fruit", "add", "Pink Pearl Apple", "--color", "pink")
    cli.succeed("favorite", "add", "crow", "Pink Pearl Apple")
    cli.succeed("revert", "crow", "--as-of", "1")
    #expect(
      try cli.suspect("crow")["favorite_fruits"] as? [String] == [
        "Pink Lady", "Golden Nectar Plum", "Hauer Pippin Apple",
      ])
  }

  @Test func aSuspectThatDidNotExistThenIsRefused() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("animal", "add", "--name", "Nia", "--species", "Newt", "--paw", "small")
    expectRefusedUnchanged(
      cli, ["revert", "newt", "--as-of", "1"],
      message: "cannot revert Nia the Newt (id 11) to change set 1: it did not exist then")
    expectRefusedUnchanged(
      cli, ["revert", "crow", "--as-of", "2000-01-01T00:00"], message: "is before the history")
    expectRefusedUnchanged(
      cli, ["revert", "crow", "--as-of", "99"], message: "no change set with id '99'")
    // The next id is the revert's own change set while it runs: not yet in the history.
    let sets = try jsonArray(cli.succeed("history", "--json", "--limit", "1"))
    let latest = try #require(sets.first?["id"] as? Int)
    expectRefusedUnchanged(
      cli, ["revert", "crow", "--as-of", "\(latest + 1)"],
      message: "no change set with id '\(latest + 1)'")
    #expect(
      cli.succeed("revert", "crow", "--as-of", "2099-01-01T00:00").contains(
        "already stands as it did after change set \(latest);"))
    expectRefusedUnchanged(cli, ["revert", "wolf", "--as-of", "1"], message: "no suspect matches")
    expectFailure(cli.run("revert", "crow"), status: 64)
  }
}
