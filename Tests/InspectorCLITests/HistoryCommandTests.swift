import Foundation
import SQLiteKit
import Testing

@testable import InspectorCLI

/// `inspector history` and the global `--as` and `--note` (docs/history.md).
@Suite("History command")
struct HistoryCommandTests {
  @Test func aWriteIsOneChangeSetWithItsActorAndNoteInWordsAndAsData() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("suspect", "crow", "0.9", "--as", "ann", "--note", "seen at the orchard")
    cli.environment["INSPECTOR_ACTOR"] = "bob"
    cli.succeed("favorite", "add", "cat", "Pink Pearl Apple")

    let table = cli.succeed("history", "--limit", "2")
    let lines = table.split(separator: "\n").map { String($0) }
    #expect(lines.count == 4)
    #expect(
      lines[2].hasSuffix(
        "bob                         Miko     favourite added: Pink Pearl Apple at position 4"))
    #expect(lines[3].hasSuffix("ann    seen at the orchard  Catie    suspicion level 0.0 -> 0.9"))

    let ndjson = cli.succeed("history", "crow", "--format", "ndjson", "--limit", "1")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(ndjson.utf8)) as? [String: Any])
    #expect(object["actor"] as? String == "ann")
    #expect(object["note"] as? String == "seen at the orchard")
    #expect((object["at"] as? String)?.hasSuffix("Z") == true)
    #expect(
      ndjson.hasSuffix(
        #","changes":[{"table":"suspicion_levels","key":{"animal_id":4},"operation":"insert","#
          + #""before":null,"after":{"animal_id":4,"level":0.9}}]}"# + "\n"))
  }

  @Test func sqlWriteIsOneChangeSetAndOtherClientsHaveNoActor() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed(
      "sql", "--write", "--as", "ops", "--note", "night shift",
      """
      INSERT INTO alibis (animal_id, statement) VALUES (1, 'Swimming laps.');
      INSERT INTO suspicion_levels (animal_id, level) VALUES (1, 0.25)
      """)
    try Connection(path: cli.databasePath).execute(
      "UPDATE alibis SET statement = 'Asleep.' WHERE animal_id = 1")
    let json = cli.succeed("history", "fish", "--json", "--limit", "2")
    let sets = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    #expect(sets.count == 2)
    #expect(sets[0]["actor"] is NSNull)
    #expect(sets[0]["note"] is NSNull)
    let other = try #require(sets[0]["changes"] as? [[String: Any]])
    #expect(other.count == 1)
    #expect(other[0]["operation"] as? String == "update")
    #expect((other[0]["before"] as? [String: Any])?["statement"] as? String == "Swimming laps.")
    #expect((other[0]["after"] as? [String: Any])?["statement"] as? String == "Asleep.")
    #expect(sets[1]["actor"] as? String == "ops")
    #expect(sets[1]["note"] as? String == "night shift")
    let changes = try #require(sets[1]["changes"] as? [[String: Any]])
    #expect(changes.map { $0["table"] as? String } == ["alibis", "suspicion_levels"])
  }

  @Test func aRemovedSuspectsHistoryIsReachableByID() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("animal", "remove", "raccoon", "--as", "ann")
    let outcome = cli.run("history", "raccoon")
    #expect(outcome.status == 65)
    let csv = cli.succeed("history", "id:10", "--format", "csv", "--limit", "1")
    let records = csv.split(separator: "\r\n").map { String($0) }
    #expect(records.first == "change_set,at,actor,note,table,key,operation,before,after")
    #expect(records.count == 6)
    #expect(
      records.last?.hasSuffix(
        #",ann,,animals,"{""id"":10}",delete,"{""id"":10,""name"":""Rénard"","#
          + #"""species"":""Raccoon"",""paw_size"":""medium"",""emoji"":""🦝""}","#) == true)
    let table = cli.succeed("history", "id:10", "--limit", "1")
    let last = try #require(table.split(separator: "\n").last)
    #expect(last.hasSuffix("Rénard   suspect removed: Rénard the Raccoon"))
  }

  @Test func filtersAndBadValues() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("sleep", "snail", "--sleep", "23:00", "--wake", "07:15")
    cli.succeed("sleep", "snail", "--sleep", "23:30", "--wake", "07:15")
    let snail = cli.succeed("history", "snail", "--limit", "2")
    #expect(snail.contains("Soloman  sleep time 23:00 -> 23:30\n"))
    #expect(snail.contains("Soloman  sleep schedule set: 23:00-07:15\n"))
    let incident = cli.succeed("history", "--incident", "1", "--format", "csv")
    #expect(incident.split(separator: "\r\n").count == 2)
    #expect(cli.succeed("history", "--since", "2999-01-01T00:00", "--json") == "[]\n")
    #expect(cli.run("history", "--since", "yesterday").status == 65)
    #expect(cli.run("history", "--incident", "x").status == 65)
    #expect(cli.run("history", "--fruit", "Durian").status == 65)
    #expect(cli.run("suspect", "crow", "0.5", "--as", " ").status == 65)
  }
}
