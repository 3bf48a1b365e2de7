import CommandLineKit
import Foundation
import Testing

@testable import InspectorCLI

/// The exit codes are one list, ``ExitCode``: the manual page prints it and docs/exit-codes.md
/// shows the same rows, so neither can drift into a second hand-written table.
@Suite struct ExitCodeDocumentationTests {
  /// The rows of docs/exit-codes.md's first table (`| code | meaning |`), as written.
  private func documentedRows() throws -> [String] {
    let url = ManualPageTests.packageRoot.appendingPathComponent("docs/exit-codes.md")
    let lines = try String(contentsOf: url, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    let header = try #require(lines.firstIndex(of: "| code | meaning |"))
    return lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map(String.init)
  }

  @Test func theDocsTableIsExitCodeInItsOrder() throws {
    let expected = ExitCode.allCases.map { "| \($0.rawValue) | \($0.meaning) |" }
    #expect(try documentedRows() == expected)
    #expect(expected.count == 9)
    #expect(expected[2] == "| 65 | " + ExitCode.dataError.meaning + " |")
  }

  @Test func theManualListsEveryCodeWithItsMeaning() throws {
    let text = InspectorManual.page.roff
    let every = (0...255).compactMap { ExitCode(rawValue: Int32($0)) }
    #expect(Set(ExitCode.allCases) == Set(every))
    for code in ExitCode.allCases {
      let entry = ".B \(code.rawValue)\n\(ManualPage.escaped(code.meaning))\n"
      #expect(text.contains(entry), "\(code)")
    }
  }
}
