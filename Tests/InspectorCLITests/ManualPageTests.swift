import CommandLineKit
import Foundation
import Testing

@testable import InspectorCLI

/// `inspector manual`: the page renders without a single groff warning, through `man -l` as a
/// user reads it, and holds every command, exit code and environment variable of the tool.
@Suite struct ManualPageTests {
  /// The package root: three levels up from this file.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static let hasGroff = FileManager.default.isExecutableFile(atPath: "/usr/bin/groff")
  static let hasMan = FileManager.default.isExecutableFile(atPath: "/usr/bin/man")

  /// The page as `inspector manual` prints it, written to `inspector.1` in the test's directory.
  private func page(in cli: CLITestCase) throws -> (text: String, path: String) {
    let outcome = cli.run("manual")
    #expect(outcome.status == 0 && outcome.standardError.isEmpty)
    let path = cli.directory.appendingPathComponent("inspector.1").path
    try outcome.standardOutput.write(toFile: path, atomically: true, encoding: .utf8)
    return (outcome.standardOutput, path)
  }

  private func run(_ executable: String, _ arguments: [String], in cli: CLITestCase) throws
    -> ChildProcess.Result
  {
    try ChildProcess(
      executable, arguments,
      environment: [
        "PATH": "/usr/bin:/bin", "HOME": cli.directory.path, "LC_ALL": "C.UTF-8",
        "MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat",
      ],
      directory: cli.directory
    ).wait()
  }

  @Test(.enabled(if: hasGroff, "groff is not installed (apt-get install groff-base)"))
  func groffRendersThePageWithoutAnyWarning() throws {
    let cli = try CLITestCase()
    let (_, path) = try page(in: cli)
    let result = try run("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", path], in: cli)
    #expect(result.status == 0)
    #expect(result.standardError == "")
  }

  @Test(.enabled(if: hasMan, "man is not installed (apt-get install man-db)"))
  func manShowsEverySection() throws {
    let cli = try CLITestCase()
    let (_, path) = try page(in: cli)
    let result = try run("/usr/bin/man", ["-l", path], in: cli)
    #expect(result.status == 0)
    #expect(result.standardError == "")
    let rendered = lines(result.standardOutput)
    #expect(rendered.first?.hasPrefix("INSPECTOR(1)") == true)
    for heading in [
      "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT",
      "FILES", "SEE ALSO",
    ] {
      #expect(rendered.contains(heading), "no \(heading)")
    }
    #expect(rendered.contains("   animal add"))
    #expect(rendered.contains("       --paw paw"))
    #expect(rendered.contains { $0.contains("Paw size. One of: small, medium, large. Required.") })
    #expect(rendered.contains("       INSPECTOR_DB"))
    #expect(rendered.contains("       $XDG_DATA_HOME/fruit-inspectors/cases.sqlite"))
  }

  @Test func everyLeafCommandHasItsSection() throws {
    let text = InspectorManual.page.roff
    let sections = lines(text).filter { $0.hasPrefix(".SS ") }
    #expect(
      sections
        == CommandTree.leaves.map { ".SS \"\($0.path.joined(separator: " "))\"" } + [".SS \"help\""]
    )
    #expect(text.contains(".TH INSPECTOR 1 \"\" \"inspector \(Inspector.version)\""))
    #expect(text.contains(".BI \\-\\-paw \" paw\"\nPaw size. One of: small, medium, large."))
  }

  @Test func everyExitCodeIsListed() throws {
    let text = InspectorManual.page.roff
    let exitStatus = try #require(
      text.split(separator: ".SH ").first { $0.hasPrefix("EXIT STATUS") })
    let listed = lines(String(exitStatus)).filter { $0.hasPrefix(".B ") }.map {
      String($0.dropFirst(3))
    }
    let codes = (0...255).compactMap { ExitCode(rawValue: Int32($0)) }.map { "\($0.rawValue)" }
    #expect(listed.sorted() == codes.sorted())
  }

  /// Every variable the sources read (`environment["X"]`, `getenv("X")`) is in ENVIRONMENT.
  @Test func everyEnvironmentVariableTheToolReadsIsListed() throws {
    let sources = Self.packageRoot.appendingPathComponent("Sources/InspectorCLI")
    let files = try #require(FileManager.default.enumerator(atPath: sources.path))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
    var read = Set<String>()
    let pattern = try Regex(#"(?:environment\[|getenv\()"([A-Z_][A-Z0-9_]*)""#)
    for file in files {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for match in text.matches(of: pattern) {
        if let name = match.output[1].substring { read.insert(String(name)) }
      }
    }
    #expect(read.isSuperset(of: ["INSPECTOR_DB", "INSPECTOR_BUSY_TIMEOUT_MS", "NO_COLOR"]))
    let listed = Set(InspectorManual.environment.map(\.name))
    #expect(read.subtracting(listed) == [], "read but not in the manual")
    let text = InspectorManual.page.roff
    for name in read { #expect(text.contains(".B \(name)\n"), "\(name)") }
  }

}
