import Foundation
import Testing

@testable import InspectorCLI

/// Each record type has one JSON writer (docs/design.md "Output"), so every shape a record is
/// printed in holds the same object: the pretty document (`--json`, an array or one object),
/// each NDJSON line, each element of a streamed array, and the record nested in another
/// (`demo`, `check`, `backup`). Each test reads a record type in every shape on the seed case
/// and compares the decoded objects.
@Suite("One JSON writer per record")
struct OneWriterPerRecordTests {
  // MARK: - Helpers

  /// `text` (a pretty array of objects, or one object) decoded, one object per record.
  static func pretty(_ text: String) throws -> [NSDictionary] {
    let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
    if let object = value as? [String: Any] { return [object as NSDictionary] }
    guard let array = value as? [[String: Any]] else {
      throw SetupFailure(description: "neither an object nor an array of objects: \(text)")
    }
    return array.map { $0 as NSDictionary }
  }

  /// Each NDJSON line decoded; a line that is not one object fails.
  static func ndjson(_ text: String) throws -> [NSDictionary] {
    #expect(text.isEmpty || text.hasSuffix("\n"))
    return try lines(text).map { line in
      guard
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      else { throw SetupFailure(description: "an NDJSON line that is not one object: \(line)") }
      return object as NSDictionary
    }
  }

  /// The records `arguments` prints as pretty JSON and as NDJSON, after checking they agree.
  static func shapes(
    _ cli: CLITestCase, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [NSDictionary] {
    let json = cli.run(arguments + ["--json"])
    let lines = cli.run(arguments + ["--format", "ndjson"])
    #expect(json.status == lines.status, sourceLocation: sourceLocation)
    let pretty = try Self.pretty(json.standardOutput)
    #expect(pretty == (try Self.ndjson(lines.standardOutput)), sourceLocation: sourceLocation)
    return pretty
  }

  /// `object[key]` as an array of objects.
  static func records(_ object: NSDictionary, _ key: String) -> [NSDictionary] {
    (object[key] as? [[String: Any]] ?? []).map { $0 as NSDictionary }
  }

  // MARK: - Records

  @Test func aSuspectIsTheSameInShowListNDJSONAndDemo() throws {
    let cli = try CLITestCase(seeded: true)
    let listed = try Self.shapes(cli, ["list"])
    #expect(listed.count == 10)
    for (index, suspect) in listed.enumerated() {
      #expect(try Self.shapes(cli, ["show", "id:\(index + 1)"]) == [suspect])
    }
    #expect(listed[3]["name"] as? String == "Catie")
    #expect(listed[3]["species"] as? String == "Crow")
    #expect(listed[3]["sleep_schedule"] is NSNull)
    // A record command prints the suspect as it is afterwards, the same object again.
    let changed = try Self.shapes(cli, ["suspect", "crow", "0.5"])
    #expect(changed == (try Self.shapes(cli, ["show", "crow"])))
    #expect(number(changed.first?["suspicion_level"]) == 0.5)
    let tour = try Self.shapes(cli, ["demo"])
    #expect(Self.records(tour[0], "suspects") == (try Self.shapes(cli, ["list"])))
  }

  @Test func aRankingRowIsTheSameInRankNDJSONAndDemo() throws {
    let cli = try CLITestCase(seeded: true)
    let ranking = try Self.shapes(cli, ["rank", "--incident", "1"])
    #expect(
      ranking.prefix(4).map { $0["name"] as? String } == ["Catie", "Ding", "Cornelius", "Fabrizio"])
    #expect(ranking.first?["clues_matched"] as? Int == 3)
    #expect((ranking.first?["clues"] as? [String: Bool])?.count == 4)
    let explained = try Self.shapes(cli, ["rank", "--incident", "1", "--explain"])
    #expect(explained == ranking)
    let tour = try Self.shapes(cli, ["demo"])
    #expect(Self.records(tour[0], "ranking") == ranking)
    let byLevel = try Self.shapes(cli, ["rank", "--all"])
    #expect(byLevel.count == 10)
    #expect(byLevel.allSatisfy { $0["clues"] is NSNull })
  }

  @Test func aFruitIsTheSameInItsRecordAndTheList() throws {
    let cli = try CLITestCase(seeded: true)
    let added = try Self.pretty(
      cli.succeed("fruit", "add", "Quince", "--color", "yellow", "--json"))
    let listed = try Self.shapes(cli, ["fruit", "list"])
    #expect(listed.count == 20)
    #expect(listed.filter { $0["name"] as? String == "Quince" } == added)
    let edited = cli.succeed("fruit", "edit", "Quince", "--color", "green", "--format", "ndjson")
    let quince = try Self.shapes(cli, ["fruit", "list"]).filter {
      $0["name"] as? String == "Quince"
    }
    #expect(try Self.ndjson(edited) == quince)
    #expect(quince.first?["color"] as? String == "green")
  }

  @Test func anIncidentIsTheSameInShowListNDJSONAndDemo() throws {
    let cli = try CLITestCase(seeded: true)
    let listed = try Self.shapes(cli, ["incident", "list"])
    #expect(listed.count == 1)
    #expect(try Self.shapes(cli, ["incident", "show", "1"]) == listed)
    #expect(listed[0]["fruit"] as? String == "Pink Pearl Apple")
    #expect(listed[0]["paw_size"] as? String == "large")
    let tour = try Self.shapes(cli, ["demo"])
    #expect([tour[0]["incident"] as? NSDictionary] == listed.map(Optional.some))
  }

  @Test func aSearchHitIsTheSameInJSONAndNDJSON() throws {
    let cli = try CLITestCase(seeded: true)
    let hits = try Self.shapes(cli, ["search", "snail"])
    #expect(hits.map { $0["subject"] as? String } == ["Soloman the Snail"])
    #expect(hits.first?["kind"] as? String == "suspect")
  }

  @Test func aChangeSetIsTheSameInJSONAndNDJSON() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("alibi", "crow", "On the roof")
    cli.succeed("suspect", "crow", "0.4", "--note", "seen near the tree")
    let sets = try Self.shapes(cli, ["history"])
    #expect(sets.map { $0["id"] as? Int } == [3, 2, 1])
    #expect(sets[0]["note"] as? String == "seen near the tree")
    #expect(Self.records(sets[0], "changes").first?["table"] as? String == "suspicion_levels")
    #expect(Self.records(sets[2], "changes").count > 1)
    #expect(try Self.shapes(cli, ["history", "crow"]).map { $0["id"] as? Int } == [3, 2, 1])
  }

  @Test func aChangeIsTheSameInDiffAndChangesShow() throws {
    let cli = try CLITestCase(seeded: true)
    let base = cli.directory.appendingPathComponent("base.sqlite").path
    cli.succeed("backup", base)
    cli.succeed("alibi", "crow", "On the roof")
    cli.succeed("incident", "remove", "1")
    let changes = try Self.shapes(cli, ["diff", base])
    #expect(changes.map { $0["table"] as? String } == ["alibis", "incidents"])
    #expect(changes[1]["after"] is NSNull)
    let file = cli.directory.appendingPathComponent("crow.changes").path
    cli.succeed("changes", "export", "--base", base, "--output", file)
    #expect(try Self.shapes(cli, ["changes", "show", file]) == changes)
  }

  @Test func aFindingIsTheSameInCheckNDJSONAndBackup() throws {
    let cli = try CLITestCase.seeded(
      writtenByAnotherClient: "PRAGMA ignore_check_constraints = ON;"
        + " INSERT INTO suspicion_levels (animal_id, level) VALUES (1, 2.0);")
    let report = try Self.shapes(cli, ["check"])
    let findings = Self.records(report[0], "findings")
    #expect(
      findings.contains { $0["message"] as? String == "level 2.0 is not a number from 0 to 1" })
    let csv = cli.run("check", "--format", "csv").standardOutput
    #expect(csv.components(separatedBy: "\r\n").dropLast().count == 1 + findings.count)
    let backup = cli.directory.appendingPathComponent("copy.sqlite").path
    let copied = try Self.shapes(cli, ["backup", backup])
    #expect(
      Self.records(copied[0], "faults") == findings.filter { $0["severity"] as? String == "fault" })
    #expect(try Self.shapes(cli, ["migrate", "status"]) == Self.records(report[0], "migrations"))
  }

  @Test func aConflictIsTheSameInJSONNDJSONAndCSV() throws {
    let cli = try CLITestCase(seeded: true)
    let base = cli.directory.appendingPathComponent("base.sqlite").path
    cli.succeed("backup", base)
    cli.succeed("suspect", "crow", "0.9")
    let file = cli.directory.appendingPathComponent("crow.changes").path
    cli.succeed("changes", "export", "--base", base, "--output", file)
    cli.succeed("suspect", "crow", "0.2")
    // The change adds the crow's level, which is there already: refused, the conflicts listed
    // in every format.
    let conflicts = try Self.shapes(cli, ["changes", "apply", file])
    #expect(
      conflicts == [
        ["kind": "conflict", "change": "Catie the Crow: suspicion level 0.0 -> 0.9"] as NSDictionary
      ])
    let csv = cli.run("changes", "apply", file, "--format", "csv")
    #expect(csv.status == 65)
    #expect(
      csv.standardOutput == "kind,change\r\nconflict,Catie the Crow: suspicion level 0.0 -> 0.9\r\n"
    )
  }

  @Test func anSQLRowIsTheSameInJSONAndNDJSON() throws {
    let cli = try CLITestCase(seeded: true)
    let rows = try Self.shapes(cli, ["sql", "SELECT id, name, color FROM fruits ORDER BY id"])
    #expect(rows == (try Self.shapes(cli, ["fruit", "list"])))
    #expect(rows.first?["name"] as? String == "Golden Gem Apple")
  }
}
