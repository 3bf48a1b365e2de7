import Testing

@testable import CommandLineKit

/// Text from anyone is printed as one safe line: no terminal control sequences, no raw line
/// break.
@Suite struct TerminalTextTests {
  @Test func controlAndBidiCharactersBecomeReplacementCharacters() {
    #expect(
      TerminalText.safe("x\u{1B}[2Jy\u{07}\u{9B}\u{202E}z\tw")
        == "x\u{FFFD}[2Jy\u{FFFD}\u{FFFD}\u{FFFD}z\tw")
    #expect(TerminalText.oneLine("a\r\nb\nc\rd\u{1B}") == "a\\nb\\nc\\rd\u{FFFD}")
    #expect(TerminalText.safe("line\nnext", keepingLineBreaks: true) == "line\nnext")
    #expect(TerminalText.safe("Rénard 🦝") == "Rénard 🦝")
  }
}
