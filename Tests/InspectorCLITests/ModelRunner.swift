import Foundation
import InspectorCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One fresh case file (seeded with `init --seed`) and one ``CaseModel`` driven side by side:
/// each operation runs in-process through ``Inspector/run`` and through the model, and the
/// checks compare the product's JSON with the model's.
///
/// Every check returns `nil` when the two agree, or a description of the difference.
final class ModelRunner {
  // MARK: - Properties

  /// One performed operation: what the model expected and what the product did.
  struct Step {
    var operation: ModelOperation
    var expected: Int32
    var actual: Int32
  }

  /// The case file and its environment (removed when the runner goes).
  let session: CLITestCase
  /// The model, in step with the product as long as no check failed.
  private(set) var model: CaseModel
  /// The operations performed so far.
  private(set) var steps: [Step] = []

  // MARK: - Init

  /// Creates and seeds a case file, and the model of the same seed case.
  ///
  /// - Throws: ``SetupFailure`` when seeding fails or the seed's ids cannot be read.
  init() throws {
    session = try CLITestCase()
    let days = Self.today()
    let outcome = session.run("init", "--seed")
    guard outcome.status == 0 else {
      throw SetupFailure(description: "init --seed failed: \(outcome.standardError)")
    }
    let dates = Set([days, Self.today()])
    let suspects = try ModelRecords.decode(
      [ModelRecords.Suspect].self, from: session.run("list", "--json").standardOutput,
      keys: ModelRecords.Suspect.keys)
    let fruits = try ModelRecords.decode(
      [ModelRecords.Fruit].self, from: session.run("fruit", "list", "--json").standardOutput,
      keys: ModelRecords.Fruit.keys)
    let incidents = try ModelRecords.decode(
      [ModelRecords.Incident].self, from: session.run("incident", "list", "--json").standardOutput,
      keys: ModelRecords.Incident.keys)
    guard incidents.count == 1, let bulletin = incidents.first,
      dates.contains(where: { bulletin.occurredAt == "\($0)T09:41" }),
      bulletin.notes.contains("seeds")
    else {
      throw SetupFailure(
        description: "the seed bulletin is not today 09:41 about seeds: \(incidents)")
    }
    model = CaseModel.seeded(
      suspectIDs: Dictionary(suspects.map { ($0.species, $0.id) }) { first, _ in first },
      fruitIDs: Dictionary(fruits.map { ($0.name, $0.id) }) { first, _ in first },
      incident: (bulletin.id, bulletin.occurredAt, bulletin.notes))
  }

  // MARK: - Public API

  /// Runs `operation` on the product and the model; compares the exit status, the error
  /// contract on failure, and the printed object (and a new id's freshness) on success.
  func perform(_ operation: ModelOperation) -> String? {
    let before = Self.today()
    let outcome = session.run(operation.arguments)
    let days = Array(Set([before, Self.today()])).sorted()
    let knownIDs = ids(for: operation)
    var reported: Any?
    var decodeFailure: String?
    if outcome.status == 0 {
      do {
        reported = try decodeOutput(of: operation, outcome.standardOutput)
      } catch {
        decodeFailure = "\(error)"
      }
    }
    var newID: Int64?
    if knownIDs != nil {
      newID =
        (reported as? ModelRecords.Suspect)?.id ?? (reported as? ModelRecords.Fruit)?.id
        ?? (reported as? ModelRecords.Incident)?.id
    }
    let prediction = model.apply(
      operation, newID: newID, today: days,
      reportedTime: (reported as? ModelRecords.Incident)?.occurredAt)
    steps.append(Step(operation: operation, expected: prediction.status, actual: outcome.status))
    guard prediction.status == outcome.status else {
      let why = prediction.reason.map { " (\($0))" } ?? ""
      return "exit status \(outcome.status), but the model expects \(prediction.status)\(why)"
        + "\n  stderr: \(ModelRecords.visible(outcome.standardError))"
    }
    if outcome.status != 0 {
      let firstLine = outcome.standardError.split(separator: "\n").first ?? ""
      // The operations ask for --json, so the error is one JSON line (docs/exit-codes.md),
      // except what the parser refuses before it knows the format.
      guard outcome.standardOutput.isEmpty,
        firstLine.hasPrefix("{\"error\":{\"kind\":") || firstLine.hasPrefix("inspector: error: ")
      else {
        return "a refusal must print nothing on stdout and one JSON or 'inspector: error:' line;"
          + " stdout: \(outcome.standardOutput), stderr: \(outcome.standardError)"
      }
      return nil
    }
    if let decodeFailure { return decodeFailure }
    if let newID, let knownIDs, knownIDs.contains(newID) || newID <= 0 {
      return "the new id \(newID) is not a fresh positive id (in use: \(knownIDs.sorted()))"
    }
    return compare(output: reported, with: prediction.output)
  }

  /// Compares `list`, `fruit list` and `incident list` (all `--json`) with the model.
  func checkState() -> String? {
    do {
      let suspects = try read([ModelRecords.Suspect].self, "list", keys: ModelRecords.Suspect.keys)
      if let difference = ModelRecords.difference(
        expected: model.suspects.map(ModelRecords.suspect), actual: suspects)
      {
        return "list --json differs from the model:\n\(difference)"
      }
      let fruits = try read(
        [ModelRecords.Fruit].self, "fruit", "list", keys: ModelRecords.Fruit.keys)
      if let difference = ModelRecords.difference(
        expected: model.fruits.map(ModelRecords.fruit), actual: fruits)
      {
        return "fruit list --json differs from the model:\n\(difference)"
      }
      let incidents = try read(
        [ModelRecords.Incident].self, "incident", "list", keys: ModelRecords.Incident.keys)
      let expected = model.incidents.sorted { ($0.occurredAt, $0.id) < ($1.occurredAt, $1.id) }
      if let difference = ModelRecords.difference(
        expected: expected.map(ModelRecords.incident), actual: incidents)
      {
        return "incident list --json (oldest first) differs from the model:\n\(difference)"
      }
      return nil
    } catch {
      return "\(error)"
    }
  }

  /// Compares `rank --json --all`, and `rank --incident ID --json --all` for each id given,
  /// with the model's ranking (README "The ranking").
  func checkRanking(incidents: [Int64]) -> String? {
    for id in [nil] + incidents.map(Optional.some) {
      let arguments = ["rank", "--json", "--all"] + (id.map { ["--incident", "\($0)"] } ?? [])
      do {
        let rows = try read([ModelRecords.RankRow].self, arguments, keys: ModelRecords.RankRow.keys)
        let expected = model.ranking(incidentID: id).map(ModelRecords.rankRow)
        if let difference = ModelRecords.difference(expected: expected, actual: rows) {
          return "\(arguments.joined(separator: " ")) differs from the model:\n\(difference)"
        }
      } catch {
        return "\(arguments.joined(separator: " ")): \(error)"
      }
    }
    return nil
  }

  // MARK: - Private helpers

  /// Runs a read command that must succeed and decodes its JSON.
  private func read<T: Decodable>(_ type: T.Type, _ arguments: String..., keys: Set<String>) throws
    -> T
  {
    try read(type, arguments + ["--json"], keys: keys)
  }

  private func read<T: Decodable>(_ type: T.Type, _ arguments: [String], keys: Set<String>) throws
    -> T
  {
    let outcome = session.run(arguments)
    guard outcome.status == 0 else {
      throw SetupFailure(
        description: "\(arguments.joined(separator: " ")) failed with \(outcome.status): "
          + outcome.standardError)
    }
    return try ModelRecords.decode(type, from: outcome.standardOutput, keys: keys)
  }

  /// The object a successful command printed.
  private func decodeOutput(of operation: ModelOperation, _ text: String) throws -> Any {
    switch operation {
    case .addFruit, .removeFruit, .editFruit:
      return try ModelRecords.decode(
        ModelRecords.Fruit.self, from: text, keys: ModelRecords.Fruit.keys)
    case .addIncident, .editIncident, .removeIncident:
      return try ModelRecords.decode(
        ModelRecords.Incident.self, from: text, keys: ModelRecords.Incident.keys)
    default:
      return try ModelRecords.decode(
        ModelRecords.Suspect.self, from: text, keys: ModelRecords.Suspect.keys)
    }
  }

  private func compare(output reported: Any?, with expected: CaseModel.Output?) -> String? {
    let difference: String?
    switch (expected, reported) {
    case (.suspect(let suspect), let actual as ModelRecords.Suspect):
      difference = ModelRecords.difference(expected: ModelRecords.suspect(suspect), actual: actual)
    case (.fruit(let fruit), let actual as ModelRecords.Fruit):
      difference = ModelRecords.difference(expected: ModelRecords.fruit(fruit), actual: actual)
    case (.incident(let incident), let actual as ModelRecords.Incident):
      difference = ModelRecords.difference(
        expected: ModelRecords.incident(incident), actual: actual)
    default:
      difference =
        "model output \(String(describing: expected)), product \(String(describing: reported))"
    }
    return difference.map { "the command's --json output differs from the model:\n\($0)" }
  }

  /// Ids in use of the kind `operation` creates, or `nil` when it creates nothing.
  private func ids(for operation: ModelOperation) -> Set<Int64>? {
    switch operation {
    case .addSuspect: Set(model.suspects.map(\.id))
    case .addFruit: Set(model.fruits.map(\.id))
    case .addIncident: Set(model.incidents.map(\.id))
    default: nil
    }
  }

  /// Today's local date, `YYYY-MM-DD`, by the C library (as a bare `HH:MM` is read).
  static func today() -> String {
    var seconds = time(nil)
    var parts = tm()
    localtime_r(&seconds, &parts)
    let (year, month, day) = (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    return "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
  }
}
