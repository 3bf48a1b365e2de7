import CommandLineKit
import Testing

@testable import InspectorCLI

/// Help wraps to the terminal's width, and to 80 columns when stdout is not a terminal.
@Suite("Help wrapping")
struct HelpWrappingTests {
  func help(_ arguments: [String], terminal: Bool, columns: Int?) -> String {
    Inspector.run(
      arguments: arguments, environment: ["HOME": "/nonexistent"], stdoutIsTerminal: terminal,
      writeToStandardError: { _ in }, output: OutputSink(), terminalColumns: columns
    ).standardOutput
  }

  func widest(_ text: String) -> Int {
    text.split(separator: "\n").map { displayWidth(of: String($0)) }.max() ?? 0
  }

  @Test(arguments: [
    ["--help"], ["sql", "--help"], ["animal", "add", "--help"], ["rank", "--help"],
  ])
  func eightyColumnsWhenNotATerminal(arguments: [String]) {
    let text = help(arguments, terminal: false, columns: 200)
    #expect(widest(text) <= 80, "\(text)")
    #expect(widest(text) >= 70)
    // Continuation lines of an option's help start at column 26.
    #expect(text.contains("\n                          "))
  }

  @Test func theTerminalsWidthWhenItIsOne() {
    let wide = help(["sql", "--help"], terminal: true, columns: 140)
    #expect(widest(wide) <= 140)
    #expect(widest(wide) > 100)
    #expect(
      wide.contains(
        "  --db <path>             The database file (default: $INSPECTOR_DB, else"
          + " $XDG_DATA_HOME/fruit-inspectors/cases.sqlite).\n"))
    // Narrower: every line fits, unless it holds one word too long to break (a path).
    for (columns, limit) in [(50, 50), (10, 40)] {
      let narrow = help(["sql", "--help"], terminal: true, columns: columns)
      for line in narrow.split(separator: "\n") where displayWidth(of: String(line)) > limit {
        let words = line.split(separator: " ")
        #expect(
          words.count == 1 || (words.count == 2 && line.hasPrefix("  --")),
          "\(columns) columns: \(line)")
      }
      #expect(narrow.contains("[--param <name=value> ...]"))
    }
  }

}
