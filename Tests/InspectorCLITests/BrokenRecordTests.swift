import CaseStore
import Foundation
import SQLiteKit
import Testing

@testable import InspectorCLI

/// Records that another client broke with the schema's checks off: a reference to a deleted
/// row is shown and flagged, never hidden or denied; a value outside the domain is an error
/// that names the table and row, never a default.
@Suite("Broken records are shown and flagged, bad values named")
struct BrokenRecordTests {
  /// What another client writes to the seed case to delete the bulletin's fruit (Pink Pearl
  /// Apple, id 15) with foreign keys off.
  static let orphaningTheBulletin = """
    PRAGMA foreign_keys = OFF;
    DELETE FROM favorite_fruits WHERE fruit_id = 15;
    DELETE FROM fruits WHERE id = 15;
    """

  @Test func anIncidentWhoseFruitIsGoneIsListedAndFlagged() throws {
    let cli = try CLITestCase.seeded(writtenByAnotherClient: Self.orphaningTheBulletin)
    let warnings = StandardErrorText()
    let outcome = Inspector.run(
      arguments: ["incident", "list", "--json"], environment: cli.environment,
      writeToStandardError: warnings.append)
    #expect(outcome.status == 0)
    let incidents = try jsonArray(outcome.standardOutput)
    #expect(incidents.count == 1)
    #expect(incidents[0]["id"] as? Int == 1)
    #expect(incidents[0]["fruit"] is NSNull)
    #expect(incidents[0]["fruit_id"] as? Int == 15)
    #expect(
      warnings.text
        == "warning: incident 1 refers to fruit id 15, which does not exist; see 'inspector check'\n"
    )
    let table = cli.succeed("incident", "list")
    #expect(table.contains("(missing fruit id 15)"))
  }

  @Test func anIncidentWhoseFruitIsGoneCanBeShownAndRanked() throws {
    let cli = try CLITestCase.seeded(writtenByAnotherClient: Self.orphaningTheBulletin)
    let shown = cli.succeed("incident", "show", "1")
    #expect(shown.contains("Fruit  (missing fruit id 15)"))
    let ranking = try jsonArray(cli.succeed("rank", "--incident", "1", "--limit", "2", "--json"))
    // Nobody favours a fruit that is gone: every suspect matches 2 of 4 clues, names decide.
    #expect(ranking.map { $0["name"] as? String } == ["Catie", "Cornelius"])
    #expect(ranking.map { $0["clues_matched"] as? Int } == [2, 2])
    let check = cli.run("check")
    #expect(check.status == 65)
    #expect(check.standardOutput.contains("refers to a row of fruits that does not exist"))
  }

  @Test(arguments: [
    (
      "UPDATE animals SET paw_size = 'huge' WHERE id = 2", ["show", "snail"],
      "inspector: error: animals id 2 holds paw_size 'huge', which is not small, medium or large"
    ),
    (
      "UPDATE animals SET paw_size = 'huge' WHERE id = 2", ["list"],
      "inspector: error: animals id 2 holds paw_size 'huge', which is not small, medium or large"
    ),
    (
      "INSERT INTO suspicion_levels (animal_id, level) VALUES (4, 1.5)", ["show", "crow"],
      "inspector: error: suspicion_levels id 4 holds level 1.5, which is not a number from 0 to 1"
    ),
    (
      "UPDATE incidents SET paw_size = 'tiny' WHERE id = 1", ["incident", "show", "1"],
      "inspector: error: incidents id 1 holds paw_size 'tiny', which is not small, medium,"
        + " large or NULL"
    ),
  ])
  func aValueOutsideTheDomainIsAnErrorNamingTheRow(
    sql: String, arguments: [String], message: String
  ) throws {
    let cli = try CLITestCase.seeded(
      writtenByAnotherClient: "PRAGMA ignore_check_constraints = ON; \(sql)")
    let outcome = cli.run(arguments)
    expectFailure(outcome, status: 65)
    #expect(
      lines(outcome.standardError) == [message, "hint: see 'inspector check' for every such value"])
  }
}
