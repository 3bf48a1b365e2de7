import CommandLineKit
import Foundation
import Testing

@testable import InspectorCLI

/// Refused input (README "A short tour"): the right exit status, exactly one `inspector: error:`
/// line first on stderr, stdout empty, and the case file unchanged.
@Suite struct BadInputTests {
  /// One refused command line and the status it must exit with.
  struct Refusal: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var status: Int32
    var fragment: String?

    init(_ arguments: [String], _ status: Int32, _ fragment: String? = nil) {
      self.arguments = arguments
      self.status = status
      self.fragment = fragment
    }

    var testDescription: String { "\(arguments.joined(separator: " ")) -> \(status)" }
  }

  static let refusals: [Refusal] = [
    // Suspicion levels: out of range, not finite, locale-shaped, or not a number.
    Refusal(["suspect", "crow", "1.5"], 65, "'1.5'"),
    Refusal(["suspect", "crow", "-0.1"], 65, "'-0.1'"),
    Refusal(["suspect", "crow", "NaN"], 65, "'NaN'"),
    Refusal(["suspect", "crow", "nan"], 65),
    Refusal(["suspect", "crow", "inf"], 65, "'inf'"),
    Refusal(["suspect", "crow", "Infinity"], 65),
    Refusal(["suspect", "crow", "1e999"], 65),
    Refusal(["suspect", "crow", "0,5"], 65, "'0,5'"),
    Refusal(["suspect", "crow", "0x1p-1"], 65),
    Refusal(["suspect", "crow", "½"], 65),
    Refusal(["suspect", "crow", "٠.٥"], 65),
    Refusal(["suspect", "crow", ""], 65),
    Refusal(["suspect", "crow", "."], 65),
    Refusal(["suspect", "crow", " 0.5"], 65),
    Refusal(["suspect", "crow"], 64, "Missing expected argument '<level>'"),
    Refusal(["suspect", "crow", "0.5", "0.6"], 64, "Unexpected argument '0.6'"),
    // Clock times.
    Refusal(["sleep", "crow", "--sleep", "25:00", "--wake", "06:30"], 65, "'25:00'"),
    Refusal(["sleep", "crow", "--sleep", "22:00", "--wake", "9:5x"], 65, "'9:5x'"),
    Refusal(["sleep", "crow", "--sleep", "12:60", "--wake", "06:30"], 65, "'12:60'"),
    Refusal(["sleep", "crow", "--sleep", "22:00:00", "--wake", "06:30"], 65),
    Refusal(["sleep", "crow", "--sleep", "10pm", "--wake", "06:30"], 65),
    Refusal(["sleep", "crow", "--sleep", "２２:００", "--wake", "06:30"], 65),
    Refusal(["sleep", "crow", "--sleep", "-1:00", "--wake", "06:30"], 64),
    Refusal(["sleep", "crow", "--sleep", "24:00", "--wake", "06:30"], 65, "'24:00'"),
    // Unknown suspects and fruits.
    Refusal(["suspect", "unicorn", "0.5"], 65, "'unicorn'"),
    Refusal(["alibi", "unicorn", "home"], 65, "'unicorn'"),
    Refusal(["sleep", "unicorn"], 65, "'unicorn'"),
    Refusal(["animal", "remove", "unicorn"], 65, "'unicorn'"),
    Refusal(["animal", "edit", "unicorn", "--name", "X"], 65, "'unicorn'"),
    Refusal(["favorite", "add", "crow", "Durian"], 65, "'Durian'"),
    Refusal(["favorite", "remove", "crow", "Durian"], 65, "'Durian'"),
    Refusal(["fruit", "remove", "Durian"], 65, "'Durian'"),
    Refusal(
      [
        "animal", "add", "--name", "Zed", "--species", "Zebra", "--paw", "large", "--fruit",
        "Durian",
      ],
      65, "'Durian'"),
    // Identity fields.
    Refusal(
      ["animal", "add", "--name", "Fin", "--species", "FISH", "--paw", "small"], 65, "'FISH'"),
    Refusal(["animal", "add", "--name", "Fin", "--species", "fish", "--paw", "small"], 65),
    Refusal(
      ["animal", "add", "--name", "Fin", "--species", "Shark", "--paw", "huge"], 64,
      "The value 'huge' is invalid for '--paw <paw>'"),
    Refusal(["animal", "add", "--name", "   ", "--species", "Shark", "--paw", "small"], 65),
    Refusal(["animal", "add", "--name", "", "--species", "Shark", "--paw", "small"], 65),
    Refusal(["animal", "add", "--name", "Fin", "--species", "  ", "--paw", "small"], 65),
    Refusal(["animal", "add", "--name", "Fin", "--paw", "small"], 64, "'--species <species>'"),
    Refusal(["animal", "edit", "crow", "--name", "   "], 65),
    Refusal(["animal", "edit", "crow", "--paw", "huge"], 64, "'huge'"),
    Refusal(["animal", "edit", "crow", "--species", "Raccoon"], 65),
    Refusal(["fruit", "add", "   ", "--color", "red"], 65),
    Refusal(["fruit", "add", "Kiwi"], 64, "'--color <color>'"),
    Refusal(["fruit", "add", "Kiwi", "--color", "#12345"], 65),
    // Global options.
    Refusal(["list", "--busy-timeout", "-5"], 64, "'-5'"),
    Refusal(["suspect", "crow", "0.5", "--busy-timeout", "soon"], 64, "'soon'"),
    Refusal(["list", "--format", "xml"], 64, "The value 'xml' is invalid for '--format <format>'"),
    Refusal(["suspect", "crow", "0.5", "--format", "xml"], 64),
    Refusal(["list", "--frobnicate"], 64, "Unknown option '--frobnicate'"),
    Refusal(["list", "--db"], 64),
    Refusal(["frobnicate"], 64, "Unknown command 'frobnicate'"),
    Refusal(["show"], 64, "Missing expected argument '<animal>'"),
    Refusal(["list", "extra"], 64, "Unexpected argument 'extra'"),
    Refusal(["show", "crow", "dove"], 64, "Unexpected argument 'dove'"),
    Refusal(["list", "--format=XML"], 64, "'XML'"),
    Refusal(["list", "--json", "--format", "csv"], 64, "contradict"),
    Refusal(["rank", "--limit", "99999999999999999999"], 64),
  ]

  @Test(arguments: refusals)
  func refusedInputLeavesTheDatabaseUnchanged(_ refusal: Refusal) throws {
    let session = try CLITestCase(seeded: true)
    session.succeed("alibi", "crow", "On the roof")
    session.succeed("sleep", "crow", "--sleep", "21:00", "--wake", "05:00")
    session.succeed("suspect", "crow", "0.25")
    session.expectRefusal(
      refusal.arguments, status: refusal.status, messageContains: refusal.fragment)
  }

  @Test(arguments: refusals.filter { $0.status == 64 })
  func usageErrorsEndWithTheUsageAndHelpLines(_ refusal: Refusal) throws {
    let session = try CLITestCase(seeded: true)
    let errorLines = lines(session.run(refusal.arguments).standardError)
    #expect(errorLines.count == 3, "\(errorLines)")
    #expect(errorLines.dropFirst().first?.hasPrefix("Usage: inspector") == true)
    #expect(errorLines.last?.hasPrefix("See 'inspector") == true)
    #expect(errorLines.last?.hasSuffix(" --help'.") == true)
  }

  @Test func dataErrorsAreOneLineEvenForMultiLineInput() throws {
    let session = try CLITestCase(seeded: true)
    let outcome = session.run("suspect", "no\nsuch\nanimal", "0.5")
    expectFailure(outcome, status: 65)
    #expect(lines(outcome.standardError).count == 1)
    #expect(outcome.standardError.contains("no\\nsuch\\nanimal"))
  }

  @Test func showWithoutArgumentPrintsTheExactUsageError() throws {
    let outcome = try CLITestCase(seeded: true).run("show")
    expectFailure(outcome, status: 64)
    #expect(outcome.standardError == showUsageError)
  }

  @Test func busyTimeoutFromTheEnvironmentIsValidated() throws {
    let session = try CLITestCase(seeded: true)
    session.environment["INSPECTOR_BUSY_TIMEOUT_MS"] = "-5"
    expectFailure(session.run("list"), status: 64, messageContains: "'-5'")
    session.environment["INSPECTOR_BUSY_TIMEOUT_MS"] = "250"
    #expect(session.run("list").status == 0)
    // The option wins over the variable.
    session.environment["INSPECTOR_BUSY_TIMEOUT_MS"] = "x"
    #expect(session.run("list", "--busy-timeout", "0").status == 0)
  }

  @Test func aFileThatIsNotADatabaseIsRefusedAndKept() throws {
    let session = try CLITestCase()
    let junk = Data("this is not sqlite, just a note about fruit\n".utf8)
    #expect(FileManager.default.createFile(atPath: session.databasePath, contents: junk))
    for command in [["list"], ["show", "crow"], ["suspect", "crow", "0.5"]] {
      let outcome = session.run(command)
      expectFailure(outcome, status: 66)
    }
    #expect(FileManager.default.contents(atPath: session.databasePath) == junk)
  }
}
