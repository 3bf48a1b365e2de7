import Testing

@testable import InspectorCLI

@Suite("Output style")
struct OutputStyleTests {
  @Test(
    "colour only on a terminal, without NO_COLOR and without --no-color",
    arguments: [
      (true, [String: String](), false, true),
      (true, ["NO_COLOR": ""], false, true),  // empty NO_COLOR does not disable
      (true, ["NO_COLOR": "1"], false, false),
      (true, ["NO_COLOR": "yes", "TERM": "xterm"], false, false),
      (true, ["TERM": "xterm-256color"], true, false),
      (false, [:], false, false),
      (false, ["NO_COLOR": "1"], true, false),
      (true, ["TERM": "dumb"], false, false),
      (true, ["TERM": "dumb-ish"], false, true),
    ])
  func decision(isTerminal: Bool, environment: [String: String], noColorFlag: Bool, expected: Bool)
  {
    let style = OutputStyle(
      isTerminal: isTerminal, environment: environment, noColorFlag: noColorFlag)
    #expect(style.usesColor == expected)
  }

  @Test("helpers wrap in SGR codes that close only their own attribute")
  func helpersWithColor() {
    let style = OutputStyle(usesColor: true)
    #expect(style.bold("NAME") == "\u{1B}[1mNAME\u{1B}[22m")
    #expect(style.red("Extremely suspicious!") == "\u{1B}[31mExtremely suspicious!\u{1B}[39m")
    #expect(style.green("Unlikely") == "\u{1B}[32mUnlikely\u{1B}[39m")
    #expect(style.orange("Very suspicious") == "\u{1B}[38;5;208mVery suspicious\u{1B}[39m")
    #expect(style.mint("Fishy") == "\u{1B}[38;5;121mFishy\u{1B}[39m")
    #expect(
      style.blue("Suspiciously Unsuspicious") == "\u{1B}[34mSuspiciously Unsuspicious\u{1B}[39m")
    #expect(style.bold(style.red("x")) == "\u{1B}[1m\u{1B}[31mx\u{1B}[39m\u{1B}[22m")
    #expect(style.red("") == "")
  }

  @Test("without colour every helper returns its text unchanged")
  func helpersWithoutColor() {
    let style = OutputStyle(isTerminal: false, environment: [:], noColorFlag: false)
    for helper in [style.bold, style.red, style.green, style.orange, style.mint, style.blue] {
      #expect(helper("Rénard") == "Rénard")
    }
  }

  @Test("an invalid file descriptor is never a terminal")
  func currentDoesNotCrash() {
    let style = OutputStyle.current(fileDescriptor: -1, noColorFlag: false)
    #expect(style.usesColor == false)  // an invalid descriptor is never a terminal
  }
}
