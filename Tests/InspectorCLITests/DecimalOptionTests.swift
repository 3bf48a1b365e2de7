import Foundation
import Testing

@testable import InspectorCLI

/// One grammar for every decimal option: the suspicion LEVEL of `suspect`, and `--lat` and
/// `--lon` of `incident add` accept and refuse exactly the same texts (plain decimal notation,
/// no exponent, never locale-dependent), and their help says so.
@Suite struct DecimalOptionTests {
  /// Inputs with the value they stand for, or `nil` when every option must refuse them. Every
  /// value lies in [0, 1], inside each option's range, so only the grammar decides.
  static let inputs: [(String, Double?)] = [
    ("0.5", 0.5), (".5", 0.5), ("+0.5", 0.5), ("+.5", 0.5), ("1", 1), ("0", 0), ("00.25", 0.25),
    ("1.", 1), ("0.000001", 0.000001), ("0.3333333333333333", 0.3333333333333333),
    ("5e-1", nil), ("1e-400", nil), ("1E0", nil), ("1e2", nil), ("0x1p-1", nil), ("inf", nil),
    ("nan", nil), ("NaN", nil), ("infinity", nil), ("0,5", nil), (" 0.5", nil), ("0.5 ", nil),
    ("", nil), (".", nil), ("+", nil), ("0..5", nil), ("+-1", nil), ("1_0", nil), ("half", nil),
    ("\u{0661}", nil), ("\u{FF11}", nil), ("0.5\u{A0}", nil),
  ]

  @Test(arguments: inputs)
  func everyDecimalOptionDecidesAlike(text: String, value: Double?) throws {
    let cli = try CLITestCase(seeded: true)
    let level = cli.run("suspect", "crow", text)
    let latitude = cli.run(
      "incident", "add", "--fruit", "Pink Pearl Apple", "--at", "09:00", "--lat", text, "--lon",
      "0", "--json")
    let longitude = cli.run(
      "incident", "add", "--fruit", "Pink Pearl Apple", "--at", "10:00", "--lat", "0", "--lon",
      text, "--json")
    guard let value else {
      #expect(level.status == 65)
      #expect(
        level.standardError
          == "inspector: error: invalid suspicion level '\(text)': expected a number from 0 to 1,"
          + " such as 0.5\n")
      #expect(latitude.status == 65)
      // Asked for --json, the error is one JSON line (docs/exit-codes.md "Errors as JSON").
      #expect(
        latitude.standardError
          == #"{"error":{"kind":"invalid","message":"#
          + JSONValue.quoted("invalid latitude '\(text)': expected degrees from -90 to 90")
          + "}}\n")
      #expect(longitude.status == 65)
      #expect(
        longitude.standardError
          == #"{"error":{"kind":"invalid","message":"#
          + JSONValue.quoted("invalid longitude '\(text)': expected degrees from -180 to 180")
          + "}}\n")
      #expect(try cli.suspect("crow")["suspicion_level"] as? Double == 0)
      #expect(try jsonArray(cli.succeed("incident", "list", "--json")).count == 1)
      return
    }
    #expect(level.status == 0, "\(level.standardError)")
    #expect(latitude.status == 0, "\(latitude.standardError)")
    #expect(longitude.status == 0, "\(longitude.standardError)")
    #expect(number(try cli.suspect("crow")["suspicion_level"]) == value)
    #expect(number(try jsonObject(latitude.standardOutput)["latitude"]) == value)
    #expect(number(try jsonObject(longitude.standardOutput)["longitude"]) == value)
  }

  @Test(arguments: [
    (["suspect", "--help"], 1), (["incident", "add", "--help"], 2),
  ])
  func helpStatesTheGrammar(arguments: [String], options: Int) throws {
    let cli = try CLITestCase()
    let outcome = cli.run(arguments)
    #expect(outcome.status == 0)
    // Help wraps lines; read it as one line of words.
    let help = outcome.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(help.components(separatedBy: "plain decimal notation").count - 1 == options)
    #expect(help.components(separatedBy: "no exponent").count - 1 == options)
  }
}
