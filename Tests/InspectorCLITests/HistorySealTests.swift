import Foundation
import SQLiteKit
import Testing

@testable import InspectorCLI

/// The history is tamper-evident (docs/history.md "Tamper evidence"): `sql --write` may not
/// rewrite it, every change set is sealed into a hash chain by the next writing command,
/// `check` and `history --verify` name the first change set edited or deleted with the stock
/// sqlite3 shell, `history --head` prints the newest seal, and `history prune` reseals.
@Suite("History seals", .tags(.processes))
struct HistorySealTests {
  /// A seeded case with two more change sets of inspector's (2 and 3), all sealed.
  private func sealedCase() throws -> CLITestCase {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("suspect", "crow", "0.9")
    cli.succeed("alibi", "crow", "In the nest.")
    return cli
  }

  /// The ids of the sealed change sets, read with `sql`.
  private func sealedIDs(_ cli: CLITestCase) -> String {
    cli.succeed(
      "sql", "SELECT group_concat(change_set_id, ' ') AS ids FROM history_seals", "--format",
      "csv")
  }

  // MARK: - Append-only to sql --write

  @Test(
    "sql --write may not rewrite the history",
    arguments: [
      ("UPDATE history_change_sets SET actor='bob'", "history_change_sets"),
      ("DELETE FROM history_changes WHERE id >= 2", "history_changes"),
      ("UPDATE history_changes SET v1 = 'x'", "history_changes"),
      ("DELETE FROM history_seals", "history_seals"),
      ("DROP TABLE history_changes", "history_changes"),
      ("ALTER TABLE history_change_sets ADD COLUMN forged TEXT", "history_change_sets"),
      ("DROP INDEX history_changes_row", "history_changes"),
      ("DROP TRIGGER history_alibis_after_insert", "alibis"),
      (
        "INSERT INTO history_change_sets (at, actor) VALUES ('2024-01-01T00:00:00.000Z', 'x')",
        "history_change_sets"
      ),
      ("INSERT INTO history_context (only, change_set_id) VALUES (1, 1)", "history_context"),
      (
        "CREATE TRIGGER mute BEFORE INSERT ON history_changes BEGIN SELECT RAISE(IGNORE); END",
        "history_changes"
      ),
      // A trigger of the script's own may not do it either.
      (
        "CREATE TRIGGER wipe AFTER INSERT ON fruits BEGIN DELETE FROM history_changes; END;"
          + " INSERT INTO fruits (name, color) VALUES ('Durian', 'green')",
        "history_changes"
      ),
    ])
  func sqlWriteMayNotRewriteTheHistory(script: String, table: String) throws {
    let cli = try sealedCase()
    let dump = try RestoreSafetyTests.shell(cli.databasePath, ".dump", in: cli)
    let outcome = cli.run("sql", "--write", script)
    expectFailure(
      outcome, status: 65,
      messageContains: "expected no UPDATE, DELETE, DROP or ALTER of the history")
    #expect(outcome.standardError.contains("it is append-only"), "\(outcome.standardError)")
    if table != "alibis" {
      #expect(outcome.standardError.contains("(\(table))"), "\(outcome.standardError)")
    } else {
      #expect(outcome.standardError.contains("(history_alibis_after_insert)"))
    }
    // Nothing changed, not even a change set of the refused script.
    #expect(try RestoreSafetyTests.shell(cli.databasePath, ".dump", in: cli) == dump)
    #expect(cli.succeed("history", "--verify").hasPrefix("intact: 3 sealed change set(s)"))
  }

  @Test func sqlWriteOfCaseTablesIsRecordedAndSealed() throws {
    let cli = try sealedCase()
    cli.succeed(
      "sql", "--write", "--as", "ops",
      "UPDATE alibis SET statement = 'Up the tree.' WHERE animal_id = 4;"
        + " DELETE FROM suspicion_levels WHERE animal_id = 4")
    let newest = try #require(try jsonArray(cli.succeed("history", "--json", "--limit", "1")).first)
    #expect(newest["id"] as? Int == 4)
    #expect(newest["actor"] as? String == "ops")
    #expect(
      (newest["changes"] as? [[String: Any]])?.map { $0["table"] as? String } == [
        "alibis", "suspicion_levels",
      ])
    #expect(sealedIDs(cli) == "ids\r\n1 2 3 4\r\n")
    #expect(
      cli.succeed("history", "--verify") == "intact: 4 sealed change set(s) up to change set 4\n")
  }

  // MARK: - Edits and deletions by another client

  @Test func anEditByTheShellIsReportedByCheckAndVerify() throws {
    let cli = try sealedCase()
    try RestoreSafetyTests.shell(
      cli.databasePath, "UPDATE history_change_sets SET actor = 'bob' WHERE id = 2;", in: cli)
    #expect(try jsonArray(cli.succeed("history", "--json"))[1]["actor"] as? String == "bob")
    let check = cli.run("check", "--format", "csv")
    #expect(check.status == 65)
    #expect(
      check.standardOutput.contains(
        "fault,history,history_change_sets,id 2,\"change set 2 does not match its seal: it, its"
          + " seal or a change set before it was edited or removed after sealing, or the one after"
          + " it was removed\","))
    let verify = cli.run("history", "--verify")
    expectFailure(
      verify, status: 65,
      messageContains: "the history's seals do not verify: change set 2 does not match its seal")
    let json = cli.run("history", "--verify", "--json")
    #expect(json.status == 65)
    let report = try jsonObject(json.standardOutput)
    #expect(report["intact"] as? Bool == false)
    #expect(report["fault_change_set"] as? Int == 2)
    #expect(report["verified"] as? Int == 1)
  }

  @Test func anEditedValueIsReported() throws {
    let cli = try sealedCase()
    try RestoreSafetyTests.shell(
      cli.databasePath,
      "UPDATE history_changes SET v1 = 'In the barn.' WHERE v1 = 'In the nest.';", in: cli)
    let verify = try jsonObject(cli.run("history", "--verify", "--format", "ndjson").standardOutput)
    #expect(verify["fault_change_set"] as? Int == 3)
    #expect(cli.run("check").standardOutput.contains("history            "))
    #expect(cli.run("check").status == 65)
  }

  @Test func aDeletedChangeSetIsReported() throws {
    let cli = try sealedCase()
    try RestoreSafetyTests.shell(
      cli.databasePath, "DELETE FROM history_change_sets WHERE id = 3;", in: cli)
    expectFailure(
      cli.run("history", "--verify"), status: 65,
      messageContains: "change set 3 is missing: its seal remains, the change set was deleted")
    #expect(
      cli.run("check", "--format", "csv").standardOutput.contains(
        "fault,history,history_change_sets,id 3,\"change set 3 is missing: its seal remains,"))
  }

  /// Its changes are read as the change set's before it (a change set's changes run up to the
  /// next one's first change), which no longer matches its seal.
  @Test func aChangeSetDeletedWithItsSealBreaksTheSealBefore() throws {
    let cli = try sealedCase()
    try RestoreSafetyTests.shell(
      cli.databasePath,
      "DELETE FROM history_change_sets WHERE id = 2; DELETE FROM history_seals"
        + " WHERE change_set_id = 2;", in: cli)
    expectFailure(
      cli.run("history", "--verify"), status: 65,
      messageContains: "change set 1 does not match its seal")
  }

  @Test func aChangeSetAddedInsideTheSealedRangeIsReported() throws {
    let cli = try sealedCase()
    try RestoreSafetyTests.shell(
      cli.databasePath,
      "INSERT INTO history_change_sets (id, at, actor, grouping)"
        + " VALUES (0, '2024-01-01T00:00:00.000Z', 'forger', 'transaction');", in: cli)
    expectFailure(
      cli.run("history", "--verify"), status: 65,
      messageContains: "change set 0 has no seal but is older than the newest seal")
  }

  // MARK: - Other clients' writes

  @Test func otherClientsWritesAreSealedByTheNextWritingCommandOnly() throws {
    let cli = try sealedCase()
    try RestoreSafetyTests.shell(
      cli.databasePath, "INSERT INTO fruits (name, color) VALUES ('Durian', 'green');", in: cli)
    // Change set 4 is the shell's: not sealed, and not a fault.
    #expect(
      cli.succeed("history", "--verify")
        == "intact: 3 sealed change set(s) up to change set 3; 1 newer change set(s) not sealed"
        + " yet\n")
    let check = cli.run("check", "--format", "csv")
    #expect(check.status == 0, "\(check.standardOutput)")
    #expect(
      check.standardOutput.contains(
        "note,history,history_change_sets,,\"1 change set(s) newer than the last seal are not"
          + " sealed yet (other clients' writes, or a history older than its seals)\",the next"
          + " inspector command that writes seals them\r\n"))
    // Reading commands seal nothing.
    let bytes = FileManager.default.contents(atPath: cli.databasePath)
    for read in [["list"], ["history"], ["show", "crow"], ["check"], ["history", "--head"]] {
      #expect(cli.run(read).status == 0, "\(read)")
    }
    #expect(FileManager.default.contents(atPath: cli.databasePath) == bytes)
    #expect(sealedIDs(cli) == "ids\r\n1 2 3\r\n")
    // The next writing command seals the shell's change set and its own.
    cli.succeed("alibi", "crow", "On the roof.")
    #expect(sealedIDs(cli) == "ids\r\n1 2 3 4 5\r\n")
    #expect(
      cli.succeed("history", "--verify") == "intact: 5 sealed change set(s) up to change set 5\n")
  }

  // MARK: - Head

  @Test func headIsPrintedInEveryFormat() throws {
    let cli = try sealedCase()
    let stored = cli.succeed(
      "sql", "SELECT lower(hex(seal)) AS seal FROM history_seals WHERE change_set_id = 3",
      "--format", "csv")
    let seal = String(try #require(stored.split(separator: "\r\n").last))
    #expect(seal.count == 64)
    #expect(cli.succeed("history", "--head") == "change set 3: \(seal)\n")
    #expect(
      cli.succeed("history", "--head", "--json")
        == "{\n  \"change_set\": 3,\n  \"seal\": \"\(seal)\"\n}\n")
    #expect(
      cli.succeed("history", "--head", "--format", "ndjson")
        == "{\"change_set\":3,\"seal\":\"\(seal)\"}\n")
    #expect(
      cli.succeed("history", "--head", "--format", "csv") == "change_set,seal\r\n3,\(seal)\r\n")
    // Another write moves the head; the old head stays the seal of change set 3.
    cli.succeed("suspect", "crow", "0.2")
    #expect(cli.succeed("history", "--head").hasPrefix("change set 4: "))
    #expect(cli.succeed("history", "--head") != "change set 3: \(seal)\n")
  }

  @Test func verifyAndHeadStandAlone() throws {
    let cli = try sealedCase()
    expectFailure(
      cli.run("history", "--verify", "--head"), status: 64,
      messageContains: "--verify and --head cannot be combined")
    expectFailure(
      cli.run("history", "crow", "--head"), status: 64,
      messageContains: "--head takes no suspect, --fruit, --incident, --since or --limit")
    expectFailure(
      cli.run("history", "--verify", "--limit", "2"), status: 64,
      messageContains: "--verify takes no suspect")
    let verify = try jsonObject(cli.succeed("history", "--verify", "--json"))
    #expect(verify["intact"] as? Bool == true)
    #expect(verify["verified"] as? Int == 3)
    #expect(verify["unsealed"] as? Int == 0)
    #expect(verify["head_change_set"] as? Int == 3)
    #expect(verify["fault"] is NSNull)
  }

  // MARK: - Prune

  @Test func pruneResealsWhatItKeeps() throws {
    let cli = try sealedCase()
    cli.succeed("suspect", "crow", "0.3")
    let sets = try jsonArray(cli.succeed("history", "--json"))
    let cut = try #require(sets[1]["at"] as? String)
    let before = cli.succeed("history", "--head")
    cli.succeed("history", "prune", "--before", cut)
    // Kept: the baseline (2, the rows after change sets 1 and 2), 3, 4 and the prune's record
    // (6; the unit's own change set 5 recorded nothing and is gone).
    #expect(sealedIDs(cli) == "ids\r\n2 3 4 6\r\n")
    #expect(
      cli.succeed("history", "--verify") == "intact: 4 sealed change set(s) up to change set 6\n")
    #expect(cli.succeed("history", "--head") != before)
    cli.succeed("check")
  }

  @Test func pruneRefusesABrokenChain() throws {
    let cli = try sealedCase()
    try RestoreSafetyTests.shell(
      cli.databasePath, "UPDATE history_change_sets SET note = 'forged' WHERE id = 3;", in: cli)
    let dump = try RestoreSafetyTests.shell(cli.databasePath, ".dump", in: cli)
    expectFailure(
      cli.run("history", "prune", "--before", "2999-01-01T00:00Z"), status: 65,
      messageContains: "change set 3 does not match its seal")
    #expect(try RestoreSafetyTests.shell(cli.databasePath, ".dump", in: cli) == dump)
  }
}
