import Foundation
import SQLiteKit
import Testing

@testable import InspectorCLI

/// `inspector blame` (docs/history.md "Blame"): each field of a suspect, fruit or incident with
/// the change set that last set it, on the seed case, in every output format.
@Suite("Blame command")
struct BlameCommandTests {
  /// `blame ARGUMENTS --json`, field name to its record.
  func blame(_ cli: CLITestCase, _ arguments: String...) throws -> [String: [String: Any]] {
    let outcome = cli.run(["blame"] + arguments + ["--json"])
    #expect(outcome.status == 0, "\(arguments): \(outcome.standardError)")
    let records = try jsonArray(outcome.standardOutput)
    var fields: [String: [String: Any]] = [:]
    for record in records { fields[try #require(record["field"] as? String)] = record }
    #expect(fields.count == records.count, "a field twice")
    return fields
  }

  /// The id and actor of the seed's change set (the template was seeded by whoever ran the
  /// tests: the login name).
  func seedChangeSet(_ cli: CLITestCase) throws -> (id: Int, actor: String) {
    let sets = try jsonArray(cli.succeed("history", "--json"))
    let seed = try #require(sets.last)
    return (try #require(seed["id"] as? Int), try #require(seed["actor"] as? String))
  }

  @Test func aSuspectsFieldsNameWhoSetThemTheSeedsOwnValuesTheSeed() throws {
    let cli = try CLITestCase(seeded: true)
    let seed = try seedChangeSet(cli)
    #expect(seed.id == 1)
    cli.succeed("suspect", "crow", "0.95", "--as", "ann", "--note", "x")
    let fields = try blame(cli, "crow")
    #expect(
      try jsonArray(cli.succeed("blame", "crow", "--json")).map { $0["field"] as? String } == [
        "name", "species", "paw_size", "emoji", "favorite_fruits[1]",
        "favorite_fruits[1].position", "favorite_fruits[2]", "favorite_fruits[2].position",
        "favorite_fruits[3]", "favorite_fruits[3].position", "alibi", "sleep_schedule.sleep",
        "sleep_schedule.wake", "suspicion_level",
      ])
    let level = try #require(fields["suspicion_level"])
    #expect(level["value"] as? Double == 0.95)
    #expect(level["source"] as? String == "history")
    #expect(level["change_set"] as? Int == 2)
    #expect(level["actor"] as? String == "ann")
    #expect(level["note"] as? String == "x")
    for (field, value) in [
      ("name", "Catie"), ("species", "Crow"), ("paw_size", "small"),
      ("emoji", "\u{1F426}\u{200D}\u{2B1B}"), ("favorite_fruits[1]", "Pink Pearl Apple"),
      ("favorite_fruits[2]", "Golden Nectar Plum"), ("favorite_fruits[3]", "Hauer Pippin Apple"),
    ] {
      let record = try #require(fields[field])
      #expect(record["value"] as? String == value, "\(field)")
      #expect(record["change_set"] as? Int == seed.id, "\(field)")
      #expect(record["actor"] as? String == seed.actor, "\(field)")
      #expect(record["note"] is NSNull, "\(field)")
    }
    #expect(fields["favorite_fruits[3].position"]?["value"] as? Int == 3)
    // The seed gave no interview: the fields are their defaults, set by no change set.
    for (field, value) in [
      ("alibi", "" as Any), ("sleep_schedule.sleep", NSNull()), ("suspicion_level", 0.95),
    ] where field != "suspicion_level" {
      let record = try #require(fields[field])
      #expect(record["source"] as? String == "default", "\(field)")
      #expect(record["change_set"] is NSNull, "\(field)")
      #expect(record["at"] is NSNull && record["actor"] is NSNull, "\(field)")
      if value is NSNull {
        #expect(record["value"] is NSNull)
      } else {
        #expect(record["value"] as? String == value as? String)
      }
    }
  }

  @Test func everyFormatSaysTheSame() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("suspect", "crow", "0.95", "--as", "ann", "--note", "x")
    let at = try #require(try jsonArray(cli.succeed("history", "--json")).first?["at"] as? String)
    let table = cli.succeed("blame", "crow").split(separator: "\n").map(String.init)
    #expect(table.count == 16)
    #expect(table[0].hasPrefix("FIELD "))
    #expect(table[0].hasSuffix(" NOTE"))
    #expect(table[15] == "suspicion_level              0.95                  2  \(at)  ann    x")
    #expect(
      table[12]
        == "alibi                                              -  never set (the default)")
    let csv = cli.succeed("blame", "crow", "--format", "csv").split(separator: "\r\n")
    #expect(csv.count == 15)
    #expect(csv[0] == "field,value,source,change_set,at,actor,note")
    #expect(csv[14] == "suspicion_level,0.95,history,2,\(at),ann,x")
    #expect(csv[11] == #"alibi,"",default,,,,"#)
    #expect(csv[12] == "sleep_schedule.sleep,,default,,,,")
    let ndjson = cli.succeed("blame", "crow", "--format", "ndjson").split(separator: "\n")
    #expect(ndjson.count == 14)
    #expect(
      ndjson[13]
        == #"{"field":"suspicion_level","value":0.95,"source":"history","change_set":2,"#
        + #""at":"\#(at)","actor":"ann","note":"x"}"#)
  }

  @Test func aMoveSetsThePositionsAndAClearedAlibiNamesWhoClearedIt() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("favorite", "move", "crow", "Hauer Pippin Apple", "--to", "1", "--as", "bob")
    cli.succeed("alibi", "crow", "In the nest.", "--as", "ann")
    cli.succeed("alibi", "crow", "--clear", "--as", "cy", "--note", "retracted")
    let fields = try blame(cli, "crow")
    #expect(fields["favorite_fruits[1]"]?["value"] as? String == "Hauer Pippin Apple")
    #expect(fields["favorite_fruits[1]"]?["change_set"] as? Int == 1)
    #expect(fields["favorite_fruits[1].position"]?["actor"] as? String == "bob")
    #expect(fields["favorite_fruits[1].position"]?["change_set"] as? Int == 2)
    #expect(fields["favorite_fruits[2]"]?["value"] as? String == "Pink Pearl Apple")
    #expect(fields["favorite_fruits[2].position"]?["change_set"] as? Int == 2)
    // The move renumbered Golden Nectar Plum too (stored 1 -> 2), so it set its position.
    #expect(fields["favorite_fruits[3]"]?["value"] as? String == "Golden Nectar Plum")
    #expect(fields["favorite_fruits[3]"]?["change_set"] as? Int == 1)
    #expect(fields["favorite_fruits[3].position"]?["change_set"] as? Int == 2)
    let alibi = try #require(fields["alibi"])
    #expect(alibi["value"] as? String == "")
    #expect(alibi["source"] as? String == "history")
    #expect(alibi["change_set"] as? Int == 4)
    #expect(alibi["actor"] as? String == "cy")
    #expect(alibi["note"] as? String == "retracted")
  }

  @Test func aFruitAndAnIncident() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("fruit", "edit", "Pink Pearl Apple", "--color", "red", "--as", "ann")
    cli.succeed("incident", "edit", "1", "--notes", "Seeds and a feather.", "--as", "bob")
    let fruit = try blame(cli, "--fruit", "pink pearl apple")
    #expect(fruit.keys.sorted() == ["color", "name"])
    #expect(fruit["name"]?["value"] as? String == "Pink Pearl Apple")
    #expect(fruit["name"]?["change_set"] as? Int == 1)
    #expect(fruit["color"]?["value"] as? String == "red")
    #expect(fruit["color"]?["actor"] as? String == "ann")
    let incident = try jsonArray(cli.succeed("blame", "--incident", "1", "--json"))
    #expect(
      incident.map { $0["field"] as? String }
        == ["fruit", "occurred_at", "paw_size", "latitude", "longitude", "notes"])
    #expect(incident[0]["value"] as? String == "Pink Pearl Apple")
    #expect(incident[0]["change_set"] as? Int == 1)
    #expect(incident[3]["value"] as? Double == 37.334371)
    #expect(incident[5]["value"] as? String == "Seeds and a feather.")
    #expect(incident[5]["actor"] as? String == "bob")
    #expect(incident[5]["change_set"] as? Int == 3)
  }

  @Test func aValueWrittenAroundTheHistoryIsNotAttributed() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("suspect", "crow", "0.3", "--as", "ann")
    let shell = try Connection(path: cli.databasePath)
    for trigger in ["history_suspicion_levels_after_update", "history_alibis_after_insert"] {
      let sql = try #require(
        try shell.scalar("SELECT sql FROM sqlite_schema WHERE name = ?", [trigger])?.textValue)
      try shell.execute("DROP TRIGGER \(trigger)")
      try shell.execute(
        trigger.contains("suspicion")
          ? "UPDATE suspicion_levels SET level = 0.99 WHERE animal_id = 4"
          : "INSERT INTO alibis (animal_id, statement) VALUES (4, 'Hand-written.')")
      try shell.execute(sql)
    }
    let fields = try blame(cli, "crow")
    for (field, value) in [("suspicion_level", 0.99 as Any), ("alibi", "Hand-written.")] {
      let record = try #require(fields[field])
      #expect(record["source"] as? String == "unrecorded", "\(field)")
      #expect(record["change_set"] is NSNull && record["actor"] is NSNull, "\(field)")
      #expect("\(record["value"] ?? "")" == "\(value)", "\(field)")
    }
    #expect(
      cli.succeed("blame", "crow").contains(
        "suspicion_level              0.99                  -  not as recorded (written around the"
          + " history)"))
    #expect(fields["name"]?["source"] as? String == "history")
  }

  @Test func anImportsAndAnAppliedChangesetsRowsAreTheirs() throws {
    let cli = try CLITestCase(seeded: true)
    let path = cli.directory.appendingPathComponent("case.json").path
    try Data(
      #"""
      {"format": "fruit-inspectors-case", "version": 1, "suspects": [{"name": "Catie", "species": "Crow", "paw_size": "small",
        "alibi": "Imported.", "suspicion_level": 0.4},
        {"name": "Nia", "species": "Newt", "paw_size": "small"}]}
      """#.utf8
    ).write(to: URL(fileURLWithPath: path))
    cli.succeed(
      "import", path, "--on-conflict", "update", "--as", "importer", "--note", "bulk load")
    let crow = try blame(cli, "crow")
    for field in ["alibi", "suspicion_level"] {
      #expect(crow[field]?["change_set"] as? Int == 2, "\(field)")
      #expect(crow[field]?["actor"] as? String == "importer", "\(field)")
      #expect(crow[field]?["note"] as? String == "bulk load", "\(field)")
    }
    #expect(crow["name"]?["change_set"] as? Int == 1)
    let newt = try blame(cli, "newt")
    #expect(newt["species"]?["change_set"] as? Int == 2)
    #expect(newt["species"]?["note"] as? String == "bulk load")

    // The same case on a laptop: its changes come back through a changeset file.
    let base = cli.directory.appendingPathComponent("base.sqlite").path
    cli.succeed("backup", base)
    let laptop = try CLITestCase()
    try FileManager.default.copyItem(atPath: base, toPath: laptop.databasePath)
    laptop.succeed("sleep", "crow", "--sleep", "21:00", "--wake", "05:00")
    let file = laptop.directory.appendingPathComponent("laptop.changes").path
    laptop.succeed("changes", "export", "--base", base, "--output", file)
    cli.succeed("changes", "apply", file, "--as", "ann", "--note", "from the laptop")
    let applied = try blame(cli, "crow")
    for (field, value) in [("sleep_schedule.sleep", "21:00"), ("sleep_schedule.wake", "05:00")] {
      #expect(applied[field]?["value"] as? String == value, "\(field)")
      #expect(applied[field]?["change_set"] as? Int == 3, "\(field)")
      #expect(applied[field]?["actor"] as? String == "ann", "\(field)")
      #expect(applied[field]?["note"] as? String == "from the laptop", "\(field)")
    }
  }

  @Test func exactlyOneRecordIsNamed() throws {
    let cli = try CLITestCase(seeded: true)
    expectFailure(
      cli.run("blame"), status: 64,
      messageContains: "Give exactly one of <animal>, --fruit and --incident")
    expectFailure(cli.run("blame", "crow", "--fruit", "Elstar Apple"), status: 64)
    expectFailure(cli.run("blame", "wolf"), status: 65, messageContains: "no suspect matches")
    expectFailure(cli.run("blame", "--fruit", "Durian"), status: 65)
    expectFailure(
      cli.run("blame", "--incident", "9"), status: 65, messageContains: "no incident with id '9'")
  }
}
