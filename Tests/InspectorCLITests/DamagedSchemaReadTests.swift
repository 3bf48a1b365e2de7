import Foundation
import Testing

@testable import InspectorCLI

/// Reading commands on a file whose schema another client changed (docs/schema.md "A damaged
/// schema"): they never print an order or a filter their own columns contradict; they refuse
/// with exit 65 naming `inspector check`.
@Suite("Reads of a damaged schema", .tags(.slow, .fileOperations), .skippedInFastSet)
struct DamagedSchemaReadTests {
  /// Every reading command of the suspects, on the seed case.
  static let reads: [[String]] = [
    ["rank"], ["rank", "--incident", "1"], ["list", "--min-level", "0.9"],
    ["list", "--sort", "level"],
    ["list", "--no-alibi"], ["show", "dove"], ["search", "dove"], ["fruit", "list"],
    ["incident", "list"],
  ]

  /// Each read refuses with exit 65, one error line saying the file is damaged and a hint
  /// naming `inspector check`, and no SQLite error text.
  static func expectRefusals(_ cli: CLITestCase, sourceLocation: SourceLocation = #_sourceLocation)
  {
    for arguments in reads {
      let outcome = cli.run(arguments)
      expectFailure(
        outcome, status: 65, messageContains: "the case file is damaged",
        sourceLocation: sourceLocation)
      #expect(outcome.standardError.contains("'inspector check'"), sourceLocation: sourceLocation)
      #expect(!outcome.standardError.contains("no such"), sourceLocation: sourceLocation)
    }
  }

  @Test func aDroppedTriggerAndAChangedLevelAreNeverRankedWrong() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("suspect", "crow", "0.5")
    cli.succeed("suspect", "dove", "0.6")
    // Another client drops the trigger that keeps animals.suspicion_level in step, then
    // raises the dove's level: the mirrored column still says 0.6.
    try RestoreSafetyTests.shell(
      cli.databasePath,
      """
      DROP TRIGGER suspicion_levels_after_update;
      UPDATE suspicion_levels SET level = 0.95
      WHERE animal_id = (SELECT id FROM animals WHERE species = 'Dove');
      UPDATE suspicion_levels SET level = 0.1
      WHERE animal_id = (SELECT id FROM animals WHERE species = 'Crow');
      """, in: cli)
    Self.expectRefusals(cli)
    #expect(cli.run("check").status == 65)
  }

  @Test func aTableRebuiltWithoutItsIndexesAndTriggersIsNamedNotNoSuchIndex() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("alibi", "crow", "On the weather vane")
    // What `sqlite-utils transform alibis` does: a new table, the rows copied, the old one
    // dropped with its index and triggers, the new one renamed.
    try RestoreSafetyTests.shell(
      cli.databasePath,
      """
      PRAGMA foreign_keys = OFF;
      BEGIN;
      CREATE TABLE alibis_new_1 (animal_id INTEGER PRIMARY KEY REFERENCES animals (id),
        statement TEXT NOT NULL DEFAULT '');
      INSERT INTO alibis_new_1 SELECT animal_id, statement FROM alibis;
      DROP TABLE alibis;
      ALTER TABLE alibis_new_1 RENAME TO alibis;
      COMMIT;
      """, in: cli)
    Self.expectRefusals(cli)
  }

  @Test func objectsOfOtherToolsAreNoDamage() throws {
    let cli = try CLITestCase(seeded: true)
    try RestoreSafetyTests.shell(
      cli.databasePath,
      """
      CREATE TABLE _litestream_seq (id INTEGER PRIMARY KEY, seq INTEGER);
      CREATE INDEX animals_by_emoji ON animals (emoji);
      ANALYZE;
      """, in: cli)
    for arguments in Self.reads {
      #expect(cli.run(arguments).status == 0, "\(arguments)")
    }
    #expect(cli.succeed("show", "dove", "--json").contains("\"species\""))
  }

  /// Writes refuse a damaged schema too: with a history trigger dropped (what `sqlite-utils
  /// transform` does to a table's triggers), a change would go unrecorded and `undo` could
  /// not revert it. `sql --write`, the way to repair the file, still works.
  @Test func writesRefuseADroppedHistoryTriggerAndSqlWriteStillRepairs() throws {
    let cli = try CLITestCase(seeded: true)
    try RestoreSafetyTests.shell(
      cli.databasePath, "DROP TRIGGER history_suspicion_levels_after_update;", in: cli)
    let dump = try RestoreSafetyTests.shell(cli.databasePath, ".dump", in: cli)
    for arguments in [
      ["suspect", "crow", "0.9"], ["alibi", "crow", "On the roof"], ["animal", "remove", "crow"],
      ["undo"], ["favorite", "add", "crow", "Elstar Apple"], ["demo"],
    ] {
      let outcome = cli.run(arguments)
      expectFailure(outcome, status: 65, messageContains: "the case file is damaged")
      #expect(outcome.standardError.contains("a change could go unrecorded"), "\(arguments)")
    }
    #expect(try RestoreSafetyTests.shell(cli.databasePath, ".dump", in: cli) == dump)
    cli.succeed("sql", "--write", "UPDATE animals SET paw_size = 'large' WHERE species = 'Crow'")
  }
}
