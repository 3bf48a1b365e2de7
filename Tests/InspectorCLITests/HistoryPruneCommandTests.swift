import Foundation
import SQLiteKit
import Testing

@testable import InspectorCLI

/// `inspector history prune --before TIME` and `check`'s history check (docs/history.md
/// "Pruning" and "Checking the history"), end to end.
@Suite("History prune and check")
struct HistoryPruneCommandTests {
  @Test func pruneKeepsTheRowsOfThenAndIsRecorded() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("suspect", "crow", "0.9")
    cli.succeed("alibi", "crow", "In the nest.")
    // A change after the cut to a row the baseline holds: replay must put it after the
    // baseline, whose entries are written later.
    cli.succeed("suspect", "crow", "0.3")
    let sets = try jsonArray(cli.succeed("history", "--json"))
    #expect(sets.map { $0["id"] as? Int } == [4, 3, 2, 1])
    let cut = try #require(sets[1]["at"] as? String)

    let pruned = try jsonObject(
      cli.succeed("history", "prune", "--before", cut, "--json", "--as", "ops"))
    #expect(pruned["pruned"] as? Int == 2)
    #expect(pruned["baseline"] as? Int == 2)
    let record = try #require(pruned["change_set"] as? Int)
    let recorded = cli.succeed(
      "sql", "SELECT actor, note FROM history_change_sets WHERE id = \(record)", "--format", "csv")
    #expect(recorded == "actor,note\r\nops,history prune before \(cut): 2 change set(s)\r\n")

    // The baseline holds the rows as they stood after change set 2; change set 3 is intact.
    let after = try jsonArray(cli.succeed("history", "--json"))
    #expect(after.map { $0["id"] as? Int } == [4, 3, 2])
    #expect(after[2]["note"] as? String == "history before \(cut)")
    // The baseline lists rows in key order, by number: fruit 1, 2, ... 10, not 1, 10, 11.
    let baseline = try #require(after[2]["changes"] as? [[String: Any]])
    #expect(
      baseline.prefix(10).map { ($0["key"] as? [String: Any])?["id"] as? Int }
        == Array(1...10))
    let crow = try jsonObject(cli.succeed("show", "crow", "--as-of", "2", "--json"))
    #expect(number(crow["suspicion_level"]) == 0.9)
    #expect(crow["alibi"] as? String == "")
    #expect(cli.succeed("list", "--as-of", "2", "--json").contains("\"Rénard\""))
    #expect(number(try cli.suspect("crow")["suspicion_level"]) == 0.3)
    #expect(cli.succeed("list", "--as-of", "4", "--json") == cli.succeed("list", "--json"))
    // What the prune dropped is not known: an id or a time before the baseline says so.
    let baselineAt = try #require(sets[2]["at"] as? String)
    for point in ["1", "2000-01-01T00:00Z"] {
      expectFailure(
        cli.run("show", "crow", "--as-of", point), status: 65,
        messageContains: "'\(point)' is before the history: it starts at \(baselineAt)"
          + " (change set 2)")
    }
    cli.succeed("check")
    cli.succeed("undo", "3")
    #expect(try cli.suspect("crow")["alibi"] as? String == "")
    #expect(number(try cli.suspect("crow")["suspicion_level"]) == 0.3)

    #expect(
      cli.succeed("history", "prune", "--before", "2000-01-01T00:00")
        == "No change set is that old.\n")
    expectFailure(cli.run("history", "prune", "--before", "soon"), status: 65)
    #expect(cli.run("history", "prune").status == 64)
    #expect(
      cli.succeed("history", "prune", "--help").contains(
        "USAGE: inspector history prune --before <time>"))
    #expect(cli.succeed("history", "--help").contains("SUBCOMMANDS:"))
    // `history <animal>` still works beside the subcommand.
    #expect(cli.succeed("history", "crow", "--limit", "1").contains("Catie"))
  }

  /// A prune that drops the newest changes (a removal's deletes) gives their ids back; an
  /// empty change set kept after the cut (another client's ignored statement) opened past
  /// them, and its first change comes back to the next id, so that the baseline's range does
  /// not run on over the next write's changes (docs/history.md "The tables").
  @Test func aPruneThatDropsTheNewestChangesKeepsEachChangeSetsRange() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("animal", "remove", "crow")
    let ignored =
      "INSERT OR IGNORE INTO fruits (id, name, color) SELECT id, name, color FROM fruits"
    _ = try RestoreSafetyTests.shell(cli.databasePath, ignored, in: cli)
    let empty = try RestoreSafetyTests.shell(
      cli.databasePath, "SELECT id || ' ' || at FROM history_change_sets ORDER BY id DESC LIMIT 1",
      in: cli
    ).split(separator: " ")
    #expect(empty.first == "3")
    let cut = String(try #require(empty.last)).trimmingCharacters(in: .whitespacesAndNewlines)
    let pruned = try jsonObject(cli.succeed("history", "prune", "--before", cut, "--json"))
    #expect(pruned["baseline"] as? Int == 2)
    let written = try #require(pruned["change_set"] as? Int) + 1
    cli.succeed("alibi", "fish", "Under water.")
    let sets = try jsonArray(cli.succeed("history", "--json"))
    #expect(sets.map { $0["id"] as? Int } == [written, 2])
    let alibi = try #require(sets[0]["changes"] as? [[String: Any]])
    #expect(alibi.map { $0["table"] as? String } == ["alibis"])
    let baseline = try #require(sets[1]["changes"] as? [[String: Any]])
    #expect(!baseline.contains { $0["table"] as? String == "alibis" })
    #expect(cli.succeed("history", "--verify").hasPrefix("intact: "))
    cli.succeed("check")
    #expect(
      cli.succeed("undo")
        == "Undid change set \(written) (1 change(s)), recorded as change set \(written + 1).\n")
  }

  @Test func checkReportsRowsTheHistoryDoesNotAgreeWith() throws {
    let cli = try CLITestCase(seeded: true)
    #expect(cli.succeed("check").contains("history            ok"))
    try Connection(path: cli.databasePath).execute(
      """
      DROP TRIGGER history_suspicion_levels_after_insert;
      INSERT INTO suspicion_levels (animal_id, level) VALUES (4, 0.5);
      UPDATE history_changes SET v1 = 'Kathy' WHERE table_id = 2 AND v1 = 'Catie';
      """)
    let outcome = cli.run("check", "--format", "csv")
    #expect(outcome.status == 65)
    let rows = outcome.standardOutput.split(separator: "\r\n").map(String.init)
    #expect(
      rows.contains {
        $0.hasPrefix("fault,history,animals,id 4,\"name is 'Catie', the history says 'Kathy'\",")
      })
    #expect(
      rows.contains {
        $0.hasPrefix("fault,history,suspicion_levels,animal_id 4,the row is not in the history,")
      })
    // The hand-edited value also breaks the seal of the change set that recorded it.
    #expect(cli.run("check").standardOutput.contains("history            3 fault(s)"))
  }
}
