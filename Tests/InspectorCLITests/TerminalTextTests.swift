import Testing

@testable import InspectorCLI

/// Error lines never carry a terminal's control sequences or a raw line break, whoever wrote
/// the text in them.
@Suite struct TerminalTextTests {
  @Test func controlAndBidiCharactersBecomeReplacementCharacters() {
    #expect(
      TerminalText.safe("x\u{1B}[2Jy\u{07}\u{9B}\u{202E}z\tw")
        == "x\u{FFFD}[2Jy\u{FFFD}\u{FFFD}\u{FFFD}z\tw")
    #expect(TerminalText.oneLine("a\r\nb\nc\rd\u{1B}") == "a\\nb\\nc\\rd\u{FFFD}")
    #expect(TerminalText.safe("line\nnext", keepingLineBreaks: true) == "line\nnext")
    #expect(TerminalText.safe("Rénard 🦝") == "Rénard 🦝")
  }

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
