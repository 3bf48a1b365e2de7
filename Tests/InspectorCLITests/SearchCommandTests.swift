import CaseStore
import Foundation
import SQLiteKit
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

  @Test func textIsFoldedAsNamesAreAndCJKWordsAreFoundInsideText() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("animal", "add", "--name", "Straße", "--species", "Stork", "--paw", "small")
    cli.succeed("alibi", "crow", "Ο Σωκράτης ήταν εδώ")
    cli.succeed("alibi", "dove", "昨日は東京にいました")
    // Look-ups fold ß as ss; search does the same.
    #expect(try cli.suspect("strasse")["name"] as? String == "Straße")
    let stork = try jsonArray(cli.succeed("search", "strasse", "--json"))
    #expect(stork.map { $0["subject"] as? String } == ["Straße the Stork"])
    #expect(stork.first?["snippet"] as? String == "[Straße] Stork")
    #expect(try jsonArray(cli.succeed("search", "STRASSE", "--json")).count == 1)
    // Greek accents and the final sigma are ignored, both ways.
    for text in ["σωκρατης", "ΣΩΚΡΑΤΗΣ", "Σωκράτης", "σωκράτησ"] {
      let rows = try jsonArray(cli.succeed("search", text, "--json"))
      #expect(rows.map { $0["snippet"] as? String } == ["Ο [Σωκράτης] ήταν εδώ"], "\(text)")
    }
    // A Japanese word inside a sentence written without spaces.
    let tokyo = try jsonArray(cli.succeed("search", "東京", "--json"))
    #expect(tokyo.map { $0["subject"] as? String } == ["Ding the Dove"])
    #expect(tokyo.first?["snippet"] as? String == "昨日は[東京]にいました")
    #expect(cli.succeed("search", "京東") == "No matches.\n")
    let raw = try jsonArray(cli.succeed("search", "東京 OR strasse", "--raw", "--json"))
    #expect(raw.compactMap { $0["kind"] as? String }.sorted() == ["alibi", "suspect"])
    #expect(
      try jsonArray(cli.succeed("search", "\"sokrates\" OR ΣΩΚΡ*", "--raw", "--json")).count == 1)
  }

  /// Hangul stored decomposed (jamo, as Python's `unicodedata.normalize("NFD")` writes it)
  /// is found by a composed query, and a decomposed query finds composed text, as look-ups do.
  @Test func decomposedHangulIsFoundAsComposedIsAndTheReverse() throws {
    let cli = try CLITestCase(seeded: true)
    let name = "김철수"
    let decomposed = name.decomposedStringWithCanonicalMapping
    #expect(decomposed.unicodeScalars.count == 8)
    try RestoreSafetyTests.shell(
      cli.databasePath,
      "UPDATE animals SET name = '\(decomposed)' WHERE species = 'Crow';", in: cli)
    cli.succeed("alibi", "dove", "서울역에 있었어요")
    #expect(try cli.suspect(name)["species"] as? String == "Crow")
    let crow = try jsonArray(cli.succeed("search", name, "--json"))
    #expect(crow.map { $0["subject"] as? String } == ["\(decomposed) the Crow"])
    let dove = try jsonArray(
      cli.succeed("search", "서울역".decomposedStringWithCanonicalMapping, "--json"))
    #expect(dove.map { $0["subject"] as? String } == ["Ding the Dove"])
  }

  @Test func longTextIsCutAroundTheMarkedWords() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed(
      "alibi", "crow",
      "I was at home all evening with my sister, then we walked down to the old weather vane"
        + " by the mill and watched the rain until midnight")
    let rows = try jsonArray(cli.succeed("search", "weather vane", "--json"))
    #expect(
      rows.first?["snippet"] as? String
        == "…to the old [weather] [vane] by the mill and watched the rain…")
    let phrase = try jsonArray(cli.succeed("search", "\"weather vane\"", "--raw", "--json"))
    #expect(
      phrase.first?["snippet"] as? String
        == "…to the old [weather vane] by the mill and watched the rain…")
  }

  @Test func everyWriteOfInspectorIndexesAtOnceForOtherReaders() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("alibi", "crow", "Perched on the weather vane")
    cli.succeed("sql", "--write", "UPDATE incidents SET notes = 'Peel on the fence' WHERE id = 1")
    // Another reader (Datasette, the sqlite3 shell) sees the new text without `search`.
    let reader = try Connection(path: cli.databasePath, mode: .readOnly)
    #expect(try reader.scalar("SELECT count(*) FROM search_queue")?.integerValue == 0)
    #expect(
      try reader.scalar("SELECT kind FROM search_index WHERE search_index MATCH 'vane'")
        == .text("alibi"))
    #expect(
      try reader.scalar("SELECT ref FROM search_index WHERE search_index MATCH 'fence'")
        == .integer(1))
  }

  /// Search reads only: another process holding the write lock does not delay it, and what
  /// that process committed before is found although nobody indexed it yet.
  @Test func aWriterHoldingTheLockDoesNotDelaySearch() throws {
    let cli = try CLITestCase(seeded: true)
    let other = try Connection(path: cli.databasePath)
    try other.execute("INSERT INTO alibis (animal_id, statement) VALUES (4, 'By the pond')")
    try other.execute("BEGIN IMMEDIATE")
    let started = ContinuousClock.now
    let outcome = cli.run("search", "pond", "--busy-timeout", "3000", "--json")
    #expect(ContinuousClock.now - started < .milliseconds(3000))
    #expect(outcome.status == 0)
    #expect(outcome.standardError == "")
    #expect(
      try jsonArray(outcome.standardOutput).map { $0["snippet"] as? String } == ["By the [pond]"])
    try other.execute("ROLLBACK")
    #expect(try other.scalar("SELECT count(*) FROM search_queue")?.integerValue == 1)
  }

  @Test func migration0010IndexesTheRowsThatExistFolded() throws {
    let cli = try CLITestCase()
    let connection = try Connection(path: cli.databasePath, mode: .readWriteCreate)
    try CaseDatabase.migrator.migrate(connection, upTo: 8)
    try connection.execute(
      """
      INSERT INTO animals (id, name, species, paw_size) VALUES (7, 'Herr Straße', 'Stork', 'small');
      INSERT INTO alibis (animal_id, statement) VALUES (7, '昨日は東京にいました');
      """)
    cli.succeed("migrate", "up")
    #expect(try connection.scalar("SELECT count(*) FROM search_queue")?.integerValue == 0)
    #expect(try jsonArray(cli.succeed("search", "strasse", "--json")).count == 1)
    #expect(
      try jsonArray(cli.succeed("search", "東京", "--json")).first?["snippet"] as? String
        == "昨日は[東京]にいました")
  }
}
