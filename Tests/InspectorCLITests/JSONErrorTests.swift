import Foundation
import Testing

@testable import InspectorCLI

/// Errors as one JSON line on stderr when `--format json` or `ndjson` is asked for
/// (docs/exit-codes.md "Errors as JSON"): the kind, the message, the hint and the candidates of
/// an ambiguous name; the exit code stays the documented one and stdout stays empty.
@Suite struct JSONErrorTests {
  /// The `error` object of stderr's one JSON line.
  static func error(_ outcome: Inspector.Outcome, sourceLocation: SourceLocation = #_sourceLocation)
    throws -> [String: Any]
  {
    #expect(outcome.standardOutput == "", sourceLocation: sourceLocation)
    #expect(
      outcome.standardError.hasSuffix("}\n")
        && outcome.standardError.filter { $0 == "\n" }.count == 1,
      "not one line: \(outcome.standardError)", sourceLocation: sourceLocation)
    guard let error = try jsonObject(outcome.standardError)["error"] as? [String: Any] else {
      throw SetupFailure(description: "no error object: \(outcome.standardError)")
    }
    return error
  }

  @Test func anAmbiguousNameGivesItsCandidates() throws {
    let session = try CLITestCase(seeded: true)
    session.succeed("animal", "add", "--name", "Crow", "--species", "Magpie", "--paw", "small")
    let outcome = session.run("show", "crow", "--json")
    #expect(outcome.status == 65)
    let error = try Self.error(outcome)
    #expect(error["kind"] as? String == "ambiguous")
    #expect(
      error["message"] as? String
        == "'crow' matches several suspects: Catie the Crow (id 4), Crow the Magpie (id 11)")
    #expect(error["hint"] as? String == "name one suspect by its id, as id:N")
    #expect(
      error["candidates"] as? [String] == ["Catie the Crow (id 4)", "Crow the Magpie (id 11)"])
    // Writes too, and NDJSON asks for the same line; nothing changed.
    let write = session.run("--format", "ndjson", "suspect", "crow", "0.5")
    #expect(write.status == 65)
    #expect(try Self.error(write)["kind"] as? String == "ambiguous")
    #expect(try session.suspect("id:4")["suspicion_level"] as? Double == 0)
  }

  @Test func aMissingSuspectIsNotFound() throws {
    let session = try CLITestCase(seeded: true)
    let outcome = session.run("--json", "show", "Unicorn")
    #expect(outcome.status == 65)
    #expect(
      outcome.standardError
        == #"{"error":{"kind":"not_found","message":"no suspect matches 'Unicorn' (species, name or id)"}}"#
        + "\n")
  }

  @Test func anInvalidValueIsInvalidAndEscaped() throws {
    let session = try CLITestCase(seeded: true)
    let outcome = session.run("suspect", "raccoon", "\"1.5\"\\", "--format", "json")
    #expect(outcome.status == 65)
    let error = try Self.error(outcome)
    #expect(error["kind"] as? String == "invalid")
    #expect(
      error["message"] as? String
        == "invalid suspicion level '\"1.5\"\\': expected a number from 0 to 1, such as 0.5")
    #expect(error["hint"] == nil)
    #expect(error["candidates"] == nil)
  }

  @Test func refusedUndoIsAConflict() throws {
    let session = try CLITestCase(seeded: true)
    session.succeed("suspect", "raccoon", "0.5")
    session.succeed("suspect", "raccoon", "0.7")
    let outcome = session.run("undo", "2", "--json")
    #expect(outcome.status == 65)
    let error = try Self.error(outcome)
    #expect(error["kind"] as? String == "conflict")
    #expect(
      error["hint"] as? String
        == "undo the later ones first, newest first ('inspector undo 3'); see 'inspector history'")
  }

  @Test func usageErrorsAfterParsingAreJSON() throws {
    let session = try CLITestCase(seeded: true)
    // A value the option's type refuses, and a rule between options (`validate`).
    for arguments in [["list", "--limit", "0", "--json"], ["undo", "1", "--to", "1", "--json"]] {
      let outcome = session.run(arguments)
      #expect(outcome.status == 64)
      let error = try Self.error(outcome)
      #expect(error["kind"] as? String == "usage")
      #expect((error["hint"] as? String)?.hasPrefix("Usage: inspector ") == true)
    }
    // An unknown option stops the parser before it knows the format: text, as ever.
    let unknown = session.run("list", "--bogus", "--json")
    #expect(unknown.status == 64)
    #expect(unknown.standardError.hasPrefix("inspector: error: Unknown option '--bogus'"))
  }

  @Test func withoutJSONErrorsStayText() throws {
    let session = try CLITestCase(seeded: true)
    for format in [[], ["--format", "table"], ["--format", "csv"]] {
      let outcome = session.run(["show", "Unicorn"] + format)
      #expect(outcome.status == 65)
      #expect(
        outcome.standardError
          == "inspector: error: no suspect matches 'Unicorn' (species, name or id)\n")
    }
  }

  @Test func aMissingDatabaseIsNotFound() throws {
    let session = try CLITestCase()
    let outcome = session.run("list", "--json")
    #expect(outcome.status == 66)
    let error = try Self.error(outcome)
    #expect(error["kind"] as? String == "not_found")
    #expect(error["message"] as? String == "no database at \(session.databasePath)")
    #expect(
      error["hint"] as? String
        == "create it with 'inspector init' (or 'inspector demo' for the seed case)")
    // --json with another format contradicts it: a usage error in text, as ever.
    let contradiction = session.run("list", "--json", "--format", "csv")
    #expect(contradiction.status == 64)
    #expect(contradiction.standardError.hasPrefix("inspector: error: --json and --format csv"))
  }

  @Test func theDocumentedKindsAreTheKindsWithTheirStatuses() throws {
    let url = ManualPageTests.packageRoot.appendingPathComponent("docs/exit-codes.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    var documented: [String: Int] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("| `") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 4, let status = Int(cells[3].prefix(3)) else { continue }
      documented[String(cells[0].dropFirst().dropLast())] = status
    }
    let kinds = CommandFailure.Kind.allCases
    #expect(
      documented == Dictionary(uniqueKeysWithValues: kinds.map { ($0.rawValue, $0.httpStatus) }))
  }

  @Test func everyKindHasTheStatusTheDeskAnswers() {
    let statuses = Dictionary(
      uniqueKeysWithValues: CommandFailure.Kind.allCases.map { ($0.rawValue, $0.httpStatus) })
    #expect(
      statuses == [
        "usage": 400, "invalid": 422, "not_found": 404, "ambiguous": 409, "conflict": 409,
        "busy": 503, "unauthorized": 401, "forbidden": 403, "too_large": 413, "io_error": 500,
        "interrupted": 503, "internal": 500,
      ])
  }
}
