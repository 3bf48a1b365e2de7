import Foundation
import SQLiteKit
import Testing

@testable import InspectorCLI

/// One in-process `inspector` session: a fresh temporary directory holding the case file, an
/// environment that points `INSPECTOR_DB`, `HOME` and `XDG_DATA_HOME` into it (so nothing
/// touches the real home), and helpers that run commands through ``Inspector/run``.
///
/// The directory is removed when the test case is released, so every test cleans up after
/// itself .
final class CLITestCase {
  // MARK: - Properties

  /// The temporary directory, removed in `deinit`.
  let directory: URL
  /// The case file `INSPECTOR_DB` names (not created until `init` or `demo`).
  let databasePath: String
  /// The environment handed to every run.
  var environment: [String: String]

  // MARK: - Init

  /// Creates the directory; with `seeded`, the case file is a copy of the seeded template
  /// (``SeededCaseTemplate``: what `inspector init --seed` makes, made once per test process).
  init(seeded: Bool = false) throws {
    directory = try TestDirectory.create(prefix: "inspector-cli-tests")
    databasePath = directory.appendingPathComponent("cases.sqlite").path
    environment = TestDirectory.environment(in: directory, database: databasePath)
    if seeded {
      try SeededCaseTemplate.copy(to: databasePath)
    }
  }
  /// A seeded session whose case file another client (a plain SQLite connection, as the
  /// sqlite3 shell or Python would open it) has then changed with `sql`.
  static func seeded(writtenByAnotherClient sql: String) throws -> CLITestCase {
    let cli = try CLITestCase(seeded: true)
    try Connection(path: cli.databasePath).execute(sql)
    return cli
  }

  deinit {
    try? FileManager.default.removeItem(at: directory)
  }

  // MARK: - Running commands

  /// Runs one command line in-process (stdout not a terminal unless told).
  @discardableResult
  func run(_ arguments: String..., terminal: Bool = false) -> Inspector.Outcome {
    run(arguments, terminal: terminal)
  }

  /// Runs one command line in-process.
  @discardableResult
  func run(_ arguments: [String], terminal: Bool = false) -> Inspector.Outcome {
    Inspector.run(arguments: arguments, environment: environment, stdoutIsTerminal: terminal)
  }

  /// Runs a command that must succeed and returns its stdout; records an issue otherwise.
  @discardableResult
  func succeed(
    _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation
  ) -> String {
    let outcome = run(arguments)
    #expect(
      outcome.status == 0, "\(arguments) failed: \(outcome.standardError)",
      sourceLocation: sourceLocation)
    #expect(outcome.standardError == "", sourceLocation: sourceLocation)
    return outcome.standardOutput
  }

  /// `show <animal> --json` as a dictionary.
  func suspect(_ reference: String) throws -> [String: Any] {
    let outcome = run("show", reference, "--json")
    guard outcome.status == 0 else {
      throw SetupFailure(description: "show \(reference) failed: \(outcome.standardError)")
    }
    return try jsonObject(outcome.standardOutput)
  }

  /// `list --json` as an array of dictionaries.
  func suspects() throws -> [[String: Any]] {
    try jsonArray(succeed("list", "--json"))
  }

  /// Everything the tool can see, for "the database is unchanged" checks: the suspects and
  /// fruits as JSON text.
  func snapshot() -> String {
    succeed("list", "--json") + succeed("fruit", "list", "--json")
  }

  /// Whether a file exists at `path`.
  func fileExists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
  }

  /// The entries of the temporary directory (to prove a command created nothing).
  func directoryContents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
  }
}

/// A failure while preparing a test.
struct SetupFailure: Error, CustomStringConvertible {
  var description: String
}

// MARK: - JSON helpers

/// Parses `text` as one JSON object.
func jsonObject(_ text: String) throws -> [String: Any] {
  let value = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
  guard let object = value as? [String: Any] else {
    throw SetupFailure(description: "not a JSON object: \(text)")
  }
  return object
}

/// Parses `text` as a JSON array of objects.
func jsonArray(_ text: String) throws -> [[String: Any]] {
  let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
  guard let array = value as? [[String: Any]] else {
    throw SetupFailure(description: "not a JSON array of objects: \(text)")
  }
  return array
}

/// A JSON number as a Double. JSONSerialization hands back `NSDecimalNumber` for fractions,
/// whose `doubleValue` can be off by an ulp (0.30000000000000004 becomes 0.3000000000000001),
/// so the number's exact text is read back with `Double(_:)` instead.
func number(_ value: Any?) -> Double? {
  guard let number = value as? NSNumber else { return nil }
  return Double(number.description) ?? number.doubleValue
}

/// Lines of `text` without the final empty one.
func lines(_ text: String) -> [String] {
  var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  if parts.last == "" { parts.removeLast() }
  return parts
}

/// Checks the error contract of README "A short tour": the status, stdout empty, and stderr
/// starting with exactly one `inspector: error:` line.
/// The lines of `standardError`; a JSON error (`--format json` or `ndjson`, docs/exit-codes.md
/// "Errors as JSON"), which must be its only line, as the text lines it stands for:
/// `inspector: error: MESSAGE` and `hint: HINT`.
func textErrorLines(_ standardError: String) -> [String] {
  let errorLines = lines(standardError)
  guard errorLines.count == 1, errorLines[0].hasPrefix("{\"error\":"),
    let error = (try? jsonObject(errorLines[0]))?["error"] as? [String: Any],
    let message = error["message"] as? String
  else { return errorLines }
  return ["inspector: error: \(message)"]
    + ((error["hint"] as? String).map { ["hint: \($0)"] } ?? [])
}

func expectFailure(
  _ outcome: Inspector.Outcome, status: Int32, messageContains fragment: String? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    outcome.status == status, "stderr: \(outcome.standardError)", sourceLocation: sourceLocation)
  #expect(outcome.standardOutput == "", sourceLocation: sourceLocation)
  let errorLines = textErrorLines(outcome.standardError)
  #expect(errorLines.first?.hasPrefix("inspector: error: ") == true, sourceLocation: sourceLocation)
  #expect(
    errorLines.filter { $0.contains("error:") }.count == 1, "\(errorLines)",
    sourceLocation: sourceLocation)
  #expect(outcome.standardError.hasSuffix("\n"), sourceLocation: sourceLocation)
  if let fragment {
    #expect(
      errorLines.first?.contains(fragment) == true, "\(errorLines.first ?? "")",
      sourceLocation: sourceLocation)
  }
}
