import Foundation
import Testing

@testable import InspectorCLI

/// `inspector search` (docs/search.md): FTS5 over names, species, alibis and incident notes,
/// kept in step by triggers, so other clients' writes are found too.
@Suite("Search")
struct SearchCommandTests {
  @Test func findsSuspectsAlibisAndNotesMostRelevantFirst() throws {
    let cli = try CLITestCase(seeded: true)
    // Set twice: the second is an upsert, whose conflict clause must not break the triggers.
    cli.succeed("alibi", "snail", "Asleep under a leaf")
    cli.succeed("alibi", "snail", "Counting snails by the pond")
    #expect(cli.succeed("search", "leaf") == "No matches.\n")
    let rows = try jsonArray(cli.succeed("search", "snail", "--json"))
    #expect(rows.map { $0["kind"] as? String } == ["suspect"])
    #expect(rows.first?["subject"] as? String == "Soloman the Snail")
    #expect(rows.first?["snippet"] as? String == "Soloman [Snail]")
    #expect(rows.first?["id"] as? Int == 2)
    let notes = cli.succeed("search", "seeds", "--no-color")
    #expect(notes.contains("incident  incident #1  The nibbler left only a few [seeds] behind."))
    let prefix = try jsonArray(cli.succeed("search", "snail*", "--raw", "--json"))
    #expect(prefix.map { $0["kind"] as? String } == ["suspect", "alibi"])
    #expect(prefix.last?["snippet"] as? String == "Counting [snails] by the pond")
    // Accents and case are ignored.
    #expect(cli.succeed("search", "RENARD", "--format", "csv").contains("Rénard the Raccoon"))
    #expect(cli.succeed("search", "nothing-like-this") == "No matches.\n")
  }

  @Test func writesOfOtherClientsAreFoundAndForgotten() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("search", "crow")  // the index is up to date from here
    // The stock sqlite3 shell, as another client writes.
    try RestoreSafetyTests.shell(
      cli.databasePath,
      """
      INSERT INTO alibis (animal_id, statement) VALUES (4, 'Perched on the weather vane');
      UPDATE incidents SET notes = 'Peel left on the fence' WHERE id = 1;
      PRAGMA foreign_keys = ON;
      DELETE FROM animals WHERE species = 'Snail';
      """, in: cli)
    let vane = try jsonArray(cli.succeed("search", "weather vane", "--json"))
    #expect(vane.map { $0["subject"] as? String } == ["Catie the Crow"])
    #expect(cli.succeed("search", "seeds") == "No matches.\n")
    #expect(cli.succeed("search", "fence", "--format", "csv").contains(",incident,1,incident #1,"))
    #expect(cli.succeed("search", "soloman") == "No matches.\n")
  }

  @Test func userTextIsNeverQuerySyntax() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed(
      "animal", "add", "--name", "Jo \"NEAR\" O'Brien-*", "--species", "Stoat", "--paw", "small")
    for text in ["NEAR", "\"NEAR\"", "O'Brien-*", "jo stoat", "stoat -", "* stoat"] {
      let rows = try jsonArray(cli.succeed("search", text, "--json"))
      #expect(rows.first?["subject"] as? String == "Jo \"NEAR\" O'Brien-* the Stoat", "\(text)")
    }
    cli.expectRefusal(
      ["search", "--", "-- * \""], status: 65, messageContains: "at least one word")
    cli.expectRefusal(
      ["search", "\"unterminated", "--raw"], status: 65, messageContains: "FTS5 query")
    cli.expectRefusal(["search"], status: 64)
    cli.expectRefusal(["search", "crow", "--limit", "0"], status: 64)
    #expect(cli.succeed("check").contains("schema             ok"))
  }
}
