import CommandLineKit
import Testing

@testable import InspectorCLI

/// Error lines never carry a terminal's control sequences or a raw line break, whoever wrote
/// the text in them.
@Suite struct TerminalTextTests {
  @Test func errorsFromTheParserAndTheCaseStoreAreOneSafeLine() throws {
    let cli = try CLITestCase(seeded: true)
    let unknown = cli.run("show", "x\u{1B}[2Jy")
    #expect(unknown.status == 65)
    #expect(
      unknown.standardError
        == "inspector: error: no suspect matches 'x\u{FFFD}[2Jy' (species, name or id)\n")
    let option = cli.run("list", "--x\ny")
    #expect(option.status == 64)
    #expect(lines(option.standardError).first == "inspector: error: Unknown option '--x\\ny'")
  }
}

/// Names another client stored with escape sequences or bidirectional overrides are shown
/// harmless in every sentence and title, and kept byte for byte in JSON.
@Suite struct StoredControlCharacterTests {
  @Test func sentencesAndTitlesShowThemAsReplacementCharacters() throws {
    // The schema refuses such text since migration 0009: a file written before it.
    let cli = try CLITestCase.seeded(
      writtenBeforeTextRules: """
        INSERT INTO animals (id, name, species, paw_size)
        VALUES (11, 'Evil' || char(27) || '[2JRed', 'Crow' || char(0x202E), 'small');
        """)
    let show = cli.succeed("show", "id:11")
    #expect(lines(show).first == "Evil\u{FFFD}[2JRed the Crow\u{FFFD}  (id 11)")
    #expect(!show.contains("\u{1B}") && !show.contains("\u{202E}"))
    let suspect = cli.succeed("suspect", "id:11", "0.5")
    #expect(suspect.hasPrefix("Evil\u{FFFD}[2JRed the Crow\u{FFFD}: suspicion 0.5"))
    #expect(try cli.suspect("id:11")["name"] as? String == "Evil\u{1B}[2JRed")
    let removed = cli.succeed("animal", "remove", "id:11")
    #expect(removed == "Removed Evil\u{FFFD}[2JRed the Crow\u{FFFD} (id 11).\n")
  }
}
