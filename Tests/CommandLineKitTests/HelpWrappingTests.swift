import Testing

@testable import CommandLineKit

/// Help text wraps at word boundaries; a usage line wraps between its items.
@Suite("Help wrapping")
struct HelpWrappingTests {
  @Test func wordsAreNeverSplit() {
    #expect(
      HelpWrapping.lines("one two three four", width: 9) == ["one two", "three", "four"])
    #expect(HelpWrapping.lines("unbreakable-word x", width: 5) == ["unbreakable-word", "x"])
    #expect(
      HelpWrapping.usageItems("inspector sql <query> [--param <name=value> ...] [--write]")
        == ["inspector", "sql", "<query>", "[--param <name=value> ...]", "[--write]"])
  }
}
