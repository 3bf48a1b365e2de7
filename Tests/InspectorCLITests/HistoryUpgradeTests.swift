import Foundation
import SQLiteKit
import Testing

@testable import CaseStore

/// A case file from before migration 0014 (the history in `history_entries` and
/// `history_values`) upgrades with its whole history (docs/history.md "The tables"): built by
/// migrations 0001 to 0013 and a varied history (inspector's change sets, another client's
/// UPDATE, DELETE, REPLACE and key moves, an undo, a prune), it shows the same words, the same
/// `--as-of` listings and suspects, the same check and the same undo results as the version
/// before 0014 gave on the same file (captured from it, below), except where the new storage
/// says a key change differently (documented).
@Suite("History upgrade from schema 13", .tags(.slow), .skippedInFastSet)
struct HistoryUpgradeTests {
  /// The history, written as inspector (change sets opened through `history_context`) and as
  /// another client (plain statements) wrote it before 0014, with the times made fixed.
  static let scenario = #"""
    PRAGMA foreign_keys = ON;
    -- 1: the seed, as inspector records it
    INSERT INTO history_change_sets (at, actor, note, grouping) VALUES ('2026-01-01T00:00:01.000Z', 'ann', 'seed', 'transaction');
    INSERT INTO history_context VALUES (1, (SELECT max(id) FROM history_change_sets));
    INSERT INTO fruits (id, name, color) VALUES (1, 'Apple', 'red'), (2, 'Pear', 'green'), (3, 'Plum', 'purple');
    INSERT INTO animals (id, name, species, paw_size, emoji) VALUES (1, 'Catie', 'Crow', 'small', NULL), (2, 'Miko', 'Cat', 'medium', NULL), (3, 'Dingo', 'Dog', 'large', NULL);
    INSERT INTO favorite_fruits VALUES (1, 1, 0), (1, 2, 1), (2, 3, 0);
    INSERT INTO alibis VALUES (1, 'in the shed');
    INSERT INTO sleep_schedules VALUES (2, '22:00', '06:00');
    INSERT INTO suspicion_levels VALUES (1, 0.3), (2, 0.5);
    INSERT INTO incidents (id, fruit_id, occurred_at, paw_size, latitude, longitude, notes) VALUES (1, 1, '2026-01-01T10:00', 'small', 1.5, 2.5, 'bitten');
    DELETE FROM history_context;
    -- 2: inspector edits
    INSERT INTO history_change_sets (at, actor, note, grouping) VALUES ('2026-01-01T00:00:02.000Z', 'ann', 'saw it', 'transaction');
    INSERT INTO history_context VALUES (1, (SELECT max(id) FROM history_change_sets));
    UPDATE suspicion_levels SET level = 0.9 WHERE animal_id = 1;
    UPDATE animals SET name = 'Catty', emoji = 'X' WHERE id = 1;
    DELETE FROM history_context;
    -- 3: a new suspect
    INSERT INTO history_change_sets (at, actor, note, grouping) VALUES ('2026-01-01T00:00:03.000Z', 'bob', NULL, 'transaction');
    INSERT INTO history_context VALUES (1, (SELECT max(id) FROM history_change_sets));
    INSERT INTO animals (id, name, species, paw_size) VALUES (4, 'Bobo', 'Bear', 'large');
    INSERT INTO suspicion_levels VALUES (4, 0.1);
    DELETE FROM history_context;
    -- 4: history prune --before change set 3's time, as inspector did it: change sets 1 and 2
    -- become baseline change set 2 (inserts of the rows alive then, entries newer than change
    -- set 3's), and the prune is recorded as a change set without changes.
    DELETE FROM history_change_sets WHERE id <= 2;
    INSERT INTO history_change_sets (id, at, actor, note, grouping) VALUES (2, '2026-01-01T00:00:02.000Z', NULL, 'history before 2026-01-01T00:00:02.500Z', 'transaction');
    INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
    SELECT 2, 'fruits', printf('{"id":%d}', id), 'insert', NULL, id, NULL FROM fruits ORDER BY id;
    INSERT INTO history_values SELECT e.id, 0, 'id', NULL, f.id FROM history_entries e JOIN fruits f ON e.change_set_id = 2 AND e.table_name = 'fruits' AND e.fruit_id = f.id;
    INSERT INTO history_values SELECT e.id, 1, 'name', NULL, f.name FROM history_entries e JOIN fruits f ON e.change_set_id = 2 AND e.table_name = 'fruits' AND e.fruit_id = f.id;
    INSERT INTO history_values SELECT e.id, 2, 'color', NULL, f.color FROM history_entries e JOIN fruits f ON e.change_set_id = 2 AND e.table_name = 'fruits' AND e.fruit_id = f.id;
    INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
    SELECT 2, 'animals', printf('{"id":%d}', id), 'insert', id, NULL, NULL FROM animals WHERE id <> 4 ORDER BY id;
    INSERT INTO history_values SELECT e.id, 0, 'id', NULL, a.id FROM history_entries e JOIN animals a ON e.change_set_id = 2 AND e.table_name = 'animals' AND e.animal_id = a.id;
    INSERT INTO history_values SELECT e.id, 1, 'name', NULL, a.name FROM history_entries e JOIN animals a ON e.change_set_id = 2 AND e.table_name = 'animals' AND e.animal_id = a.id;
    INSERT INTO history_values SELECT e.id, 2, 'species', NULL, a.species FROM history_entries e JOIN animals a ON e.change_set_id = 2 AND e.table_name = 'animals' AND e.animal_id = a.id;
    INSERT INTO history_values SELECT e.id, 3, 'paw_size', NULL, a.paw_size FROM history_entries e JOIN animals a ON e.change_set_id = 2 AND e.table_name = 'animals' AND e.animal_id = a.id;
    INSERT INTO history_values SELECT e.id, 4, 'emoji', NULL, a.emoji FROM history_entries e JOIN animals a ON e.change_set_id = 2 AND e.table_name = 'animals' AND e.animal_id = a.id;
    INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
    SELECT 2, 'favorite_fruits', printf('{"animal_id":%d,"fruit_id":%d}', animal_id, fruit_id), 'insert', animal_id, fruit_id, NULL FROM favorite_fruits ORDER BY animal_id, fruit_id;
    INSERT INTO history_values SELECT e.id, 0, 'animal_id', NULL, f.animal_id FROM history_entries e JOIN favorite_fruits f ON e.change_set_id = 2 AND e.table_name = 'favorite_fruits' AND e.animal_id = f.animal_id AND e.fruit_id = f.fruit_id;
    INSERT INTO history_values SELECT e.id, 1, 'fruit_id', NULL, f.fruit_id FROM history_entries e JOIN favorite_fruits f ON e.change_set_id = 2 AND e.table_name = 'favorite_fruits' AND e.animal_id = f.animal_id AND e.fruit_id = f.fruit_id;
    INSERT INTO history_values SELECT e.id, 2, 'position', NULL, f.position FROM history_entries e JOIN favorite_fruits f ON e.change_set_id = 2 AND e.table_name = 'favorite_fruits' AND e.animal_id = f.animal_id AND e.fruit_id = f.fruit_id;
    INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
    SELECT 2, 'alibis', printf('{"animal_id":%d}', animal_id), 'insert', animal_id, NULL, NULL FROM alibis;
    INSERT INTO history_values SELECT e.id, 0, 'animal_id', NULL, a.animal_id FROM history_entries e JOIN alibis a ON e.change_set_id = 2 AND e.table_name = 'alibis' AND e.animal_id = a.animal_id;
    INSERT INTO history_values SELECT e.id, 1, 'statement', NULL, a.statement FROM history_entries e JOIN alibis a ON e.change_set_id = 2 AND e.table_name = 'alibis' AND e.animal_id = a.animal_id;
    INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
    SELECT 2, 'sleep_schedules', printf('{"animal_id":%d}', animal_id), 'insert', animal_id, NULL, NULL FROM sleep_schedules;
    INSERT INTO history_values SELECT e.id, 0, 'animal_id', NULL, a.animal_id FROM history_entries e JOIN sleep_schedules a ON e.change_set_id = 2 AND e.table_name = 'sleep_schedules' AND e.animal_id = a.animal_id;
    INSERT INTO history_values SELECT e.id, 1, 'sleep_at', NULL, a.sleep_at FROM history_entries e JOIN sleep_schedules a ON e.change_set_id = 2 AND e.table_name = 'sleep_schedules' AND e.animal_id = a.animal_id;
    INSERT INTO history_values SELECT e.id, 2, 'wake_at', NULL, a.wake_at FROM history_entries e JOIN sleep_schedules a ON e.change_set_id = 2 AND e.table_name = 'sleep_schedules' AND e.animal_id = a.animal_id;
    INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
    SELECT 2, 'suspicion_levels', printf('{"animal_id":%d}', animal_id), 'insert', animal_id, NULL, NULL FROM suspicion_levels WHERE animal_id <> 4;
    INSERT INTO history_values SELECT e.id, 0, 'animal_id', NULL, a.animal_id FROM history_entries e JOIN suspicion_levels a ON e.change_set_id = 2 AND e.table_name = 'suspicion_levels' AND e.animal_id = a.animal_id;
    INSERT INTO history_values SELECT e.id, 1, 'level', NULL, a.level FROM history_entries e JOIN suspicion_levels a ON e.change_set_id = 2 AND e.table_name = 'suspicion_levels' AND e.animal_id = a.animal_id;
    INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
    SELECT 2, 'incidents', printf('{"id":%d}', id), 'insert', NULL, fruit_id, id FROM incidents;
    INSERT INTO history_values SELECT e.id, c.ordinal, c.name, NULL, CASE c.ordinal WHEN 0 THEN i.id WHEN 1 THEN i.fruit_id WHEN 2 THEN i.occurred_at WHEN 3 THEN i.paw_size WHEN 4 THEN i.latitude WHEN 5 THEN i.longitude WHEN 6 THEN i.notes END
    FROM history_entries e JOIN incidents i ON e.change_set_id = 2 AND e.table_name = 'incidents' AND e.incident_id = i.id,
      (SELECT 0 AS ordinal, 'id' AS name UNION ALL SELECT 1, 'fruit_id' UNION ALL SELECT 2, 'occurred_at' UNION ALL SELECT 3, 'paw_size' UNION ALL SELECT 4, 'latitude' UNION ALL SELECT 5, 'longitude' UNION ALL SELECT 6, 'notes') c;
    INSERT INTO history_change_sets (at, actor, note, grouping) VALUES ('2026-01-01T00:00:04.000Z', 'ops', 'history prune before 2026-01-01T00:00:02.500Z: 2 change set(s)', 'transaction');
    -- 5: another client's UPDATE (a 'statement' change set)
    UPDATE alibis SET statement = 'in the barn' WHERE animal_id = 1;
    -- 6: inspector: REPLACE over an existing row
    INSERT INTO history_change_sets (at, actor, note, grouping) VALUES ('2026-01-01T00:00:06.000Z', 'ann', NULL, 'transaction');
    INSERT INTO history_context VALUES (1, (SELECT max(id) FROM history_change_sets));
    INSERT OR REPLACE INTO alibis VALUES (1, 'at home');
    INSERT OR REPLACE INTO suspicion_levels VALUES (2, 0.5);
    DELETE FROM history_context;
    -- 7: another client's UPDATE OR REPLACE moving a favourite onto a taken key
    UPDATE OR REPLACE favorite_fruits SET fruit_id = 2 WHERE animal_id = 1 AND fruit_id = 1;
    -- 8: inspector: a key move and a later update of the moved row
    INSERT INTO history_change_sets (at, actor, note, grouping) VALUES ('2026-01-01T00:00:08.000Z', 'ann', 'renumber', 'transaction');
    INSERT INTO history_context VALUES (1, (SELECT max(id) FROM history_change_sets));
    UPDATE animals SET id = 10 WHERE id = 3;
    DELETE FROM history_context;
    -- 9: another client's UPDATE of the moved suspect
    UPDATE animals SET paw_size = 'medium' WHERE id = 10;
    -- 10: an undo of change set 6, as inspector recorded it
    INSERT INTO history_change_sets (at, actor, note, grouping) VALUES ('2026-01-01T00:00:10.000Z', 'ann', 'undo of change set 6', 'transaction');
    INSERT INTO history_context VALUES (1, (SELECT max(id) FROM history_change_sets));
    UPDATE alibis SET statement = 'in the barn' WHERE animal_id = 1;
    DELETE FROM history_context;
    -- 11: inspector: a suspect removed (its favourites, schedule and level by the cascade)
    INSERT INTO history_change_sets (at, actor, note, grouping) VALUES ('2026-01-01T00:00:11.000Z', 'bob', 'gone', 'transaction');
    INSERT INTO history_context VALUES (1, (SELECT max(id) FROM history_change_sets));
    DELETE FROM animals WHERE id = 2;
    DELETE FROM history_context;
    -- 12: another client's DELETE and REPLACE INTO of an incident
    REPLACE INTO incidents (id, fruit_id, occurred_at, paw_size, latitude, longitude, notes) VALUES (1, 2, '2026-01-02T11:00', NULL, NULL, NULL, 'pear this time');
    -- 13: inspector: a new fruit and an incident of it
    INSERT INTO history_change_sets (at, actor, note, grouping) VALUES ('2026-01-01T00:00:13.000Z', 'ann', NULL, 'transaction');
    INSERT INTO history_context VALUES (1, (SELECT max(id) FROM history_change_sets));
    INSERT INTO fruits (id, name, color) VALUES (4, 'Fig', 'purple');
    INSERT INTO incidents (id, fruit_id, occurred_at) VALUES (2, 4, '2026-01-03T12:00');
    UPDATE suspicion_levels SET level = 1.0 WHERE animal_id = 1;
    DELETE FROM history_context;
    UPDATE history_change_sets SET at = printf('2026-01-01T00:00:%02d.000Z', id);
    """#

  /// `inspector history` on that file before the upgrade.
  static let historyBefore = #"""
    SET  AT                        ACTOR  NOTE                                     SUSPECT  CHANGE
    ───  ────────────────────────  ─────  ───────────────────────────────────────  ───────  ───────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────
     13  2026-01-01T00:00:13.000Z  ann                                                      fruit added: Fig (purple)
                                                                                            incident 2 recorded: Fig nibbled at 2026-01-03T12:00
                                                                                   Catty    suspicion level 0.9 -> 1.0
     12  2026-01-01T00:00:12.000Z  -                                                        incident 1: fruit_id 1 -> 2, time 2026-01-01T10:00 -> 2026-01-02T11:00, paw size small -> none, latitude 1.5 -> none, longitude 2.5 -> none, notes bitten -> pear this time
     11  2026-01-01T00:00:11.000Z  bob    gone                                     Miko     suspicion level 0.5 -> 0.0
                                                                                   Miko     sleep schedule cleared (was 22:00-06:00)
                                                                                   Miko     favourite removed: Plum (was at position 1)
                                                                                   Miko     suspect removed: Miko the Cat
     10  2026-01-01T00:00:10.000Z  ann    undo of change set 6                     Catty    alibi "at home" -> "in the barn"
      9  2026-01-01T00:00:09.000Z  -                                               Dingo    paw size large -> medium
      8  2026-01-01T00:00:08.000Z  ann    renumber                                 Dingo    id 3 -> 10
      7  2026-01-01T00:00:07.000Z  -                                               Catty    favourite removed: Pear (was at position 2)
                                                                                   Catty    favourite fruit_id 1 -> 2
      6  2026-01-01T00:00:06.000Z  ann                                             Catty    alibi "in the barn" -> "at home"
      5  2026-01-01T00:00:05.000Z  -                                               Catty    alibi "in the shed" -> "in the barn"
      3  2026-01-01T00:00:03.000Z  bob                                             Bobo     suspect added: Bobo the Bear, paw large
                                                                                   Bobo     suspicion level 0.0 -> 0.1
      2  2026-01-01T00:00:02.000Z  -      history before 2026-01-01T00:00:02.500Z           fruit added: Apple (red)
                                                                                            fruit added: Pear (green)
                                                                                            fruit added: Plum (purple)
                                                                                   Catty    suspect added: Catty the Crow, paw small, emoji X
                                                                                   Miko     suspect added: Miko the Cat, paw medium
                                                                                   Dingo    suspect added: Dingo the Dog, paw large
                                                                                   Catty    favourite added: Apple at position 1
                                                                                   Catty    favourite added: Pear at position 2
                                                                                   Miko     favourite added: Plum at position 1
                                                                                   Catty    alibi set: "in the shed"
                                                                                   Miko     sleep schedule set: 22:00-06:00
                                                                                   Catty    suspicion level 0.0 -> 0.9
                                                                                   Miko     suspicion level 0.0 -> 0.5
                                                                                            incident 1 recorded: Apple nibbled at 2026-01-01T10:00
    """#

  /// The lines of ``historyBefore`` that the upgraded history says differently: a key change
  /// is a delete of the old key and an insert of the new one (docs/history.md "What other
  /// clients' REPLACE records").
  static let keyChanges: [(before: String, after: [String])] = [
    (
      "  8  2026-01-01T00:00:08.000Z  ann    renumber                                 Dingo    id 3 -> 10",
      [
        "  8  2026-01-01T00:00:08.000Z  ann    renumber                                 Dingo    suspect removed: Dingo the Dog",
        "                                                                               Dingo    suspect added: Dingo the Dog, paw large",
      ]
    ),
    (
      "                                                                               Catty    favourite fruit_id 1 -> 2",
      [
        "                                                                               Catty    favourite removed: Apple (was at position 1)",
        "                                                                               Catty    favourite added: Pear at position 1",
      ]
    ),
  ]

  /// `list --as-of N --format csv` for every change set N, before the upgrade.
  static let listsBefore = #"""
    == 2
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Apple"",""Pear""]",in the shed,,,0.9,Extremely suspicious!
    2,Miko,Cat,,medium,"[""Plum""]","",22:00,06:00,0.5,Very suspicious
    3,Dingo,Dog,,large,[],"",,,0.0,Unlikely
    == 3
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Apple"",""Pear""]",in the shed,,,0.9,Extremely suspicious!
    2,Miko,Cat,,medium,"[""Plum""]","",22:00,06:00,0.5,Very suspicious
    3,Dingo,Dog,,large,[],"",,,0.0,Unlikely
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    == 4
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Apple"",""Pear""]",in the shed,,,0.9,Extremely suspicious!
    2,Miko,Cat,,medium,"[""Plum""]","",22:00,06:00,0.5,Very suspicious
    3,Dingo,Dog,,large,[],"",,,0.0,Unlikely
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    == 5
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Apple"",""Pear""]",in the barn,,,0.9,Extremely suspicious!
    2,Miko,Cat,,medium,"[""Plum""]","",22:00,06:00,0.5,Very suspicious
    3,Dingo,Dog,,large,[],"",,,0.0,Unlikely
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    == 6
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Apple"",""Pear""]",at home,,,0.9,Extremely suspicious!
    2,Miko,Cat,,medium,"[""Plum""]","",22:00,06:00,0.5,Very suspicious
    3,Dingo,Dog,,large,[],"",,,0.0,Unlikely
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    == 7
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Pear""]",at home,,,0.9,Extremely suspicious!
    2,Miko,Cat,,medium,"[""Plum""]","",22:00,06:00,0.5,Very suspicious
    3,Dingo,Dog,,large,[],"",,,0.0,Unlikely
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    == 8
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Pear""]",at home,,,0.9,Extremely suspicious!
    2,Miko,Cat,,medium,"[""Plum""]","",22:00,06:00,0.5,Very suspicious
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    10,Dingo,Dog,,large,[],"",,,0.0,Unlikely
    == 9
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Pear""]",at home,,,0.9,Extremely suspicious!
    2,Miko,Cat,,medium,"[""Plum""]","",22:00,06:00,0.5,Very suspicious
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    10,Dingo,Dog,,medium,[],"",,,0.0,Unlikely
    == 10
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Pear""]",in the barn,,,0.9,Extremely suspicious!
    2,Miko,Cat,,medium,"[""Plum""]","",22:00,06:00,0.5,Very suspicious
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    10,Dingo,Dog,,medium,[],"",,,0.0,Unlikely
    == 11
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Pear""]",in the barn,,,0.9,Extremely suspicious!
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    10,Dingo,Dog,,medium,[],"",,,0.0,Unlikely
    == 12
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Pear""]",in the barn,,,0.9,Extremely suspicious!
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    10,Dingo,Dog,,medium,[],"",,,0.0,Unlikely
    == 13
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Pear""]",in the barn,,,1.0,Extremely suspicious!
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    10,Dingo,Dog,,medium,[],"",,,0.0,Unlikely
    """#

  /// `show ... --as-of N --format csv` of a removed suspect, a suspect at its old and new id,
  /// and one added after the pruned history, before the upgrade.
  static let showsBefore = #"""
    == Miko --as-of 10
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    2,Miko,Cat,,medium,"[""Plum""]","",22:00,06:00,0.5,Very suspicious
    == 3 --as-of 7
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    3,Dingo,Dog,,large,[],"",,,0.0,Unlikely
    == 10 --as-of 9
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    10,Dingo,Dog,,medium,[],"",,,0.0,Unlikely
    == Bobo --as-of 3
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    """#

  /// A copy of the scenario's file at schema 13.
  static func fileAtSchema13() throws -> CLITestCase {
    let cli = try CLITestCase()
    let connection = try Connection(path: cli.databasePath, mode: .readWriteCreate)
    try CaseDatabase.migrator.migrate(connection, upTo: 13)
    try connection.execute(scenario)
    return cli
  }

  @Test func everyChangeSetReadsTheSameAfterTheUpgrade() throws {
    let cli = try Self.fileAtSchema13()
    let entries = try Connection(path: cli.databasePath).scalar(
      "SELECT count(*) FROM history_entries")
    #expect(entries == .integer(31))
    #expect(cli.run("list").status == 65)
    // Before the upgrade, check says it skipped the history's check (it reads the layout of
    // migration 0014), rather than failing to replay it.
    let pending = cli.run("check", "--format", "csv")
    #expect(pending.status == 65)
    #expect(
      pending.standardOutput.contains(
        "note,history,,,skipped: the history check need(s) schema version 14; the file is at"
          + " version 13,inspector migrate up"))
    #expect(!pending.standardOutput.contains("cannot be replayed"))
    cli.succeed("migrate", "up")
    #expect(
      try Connection(path: cli.databasePath).scalar(
        "SELECT count(*) FROM sqlite_schema WHERE name IN ('history_entries', 'history_values')")
        == .integer(0))

    var expected = Self.historyBefore
    for (before, after) in Self.keyChanges {
      #expect(expected.contains(before + "\n"))
      expected = expected.replacingOccurrences(
        of: before + "\n", with: after.joined(separator: "\n") + "\n")
    }
    #expect(cli.succeed("history") == expected + "\n")

    var lists = ""
    for id in 2...13 {
      lists += "== \(id)\n" + cli.succeed("list", "--as-of", "\(id)", "--format", "csv")
    }
    var shows = ""
    for point in [["Miko", "10"], ["3", "7"], ["10", "9"], ["Bobo", "3"]] {
      shows +=
        "== \(point[0]) --as-of \(point[1])\n"
        + cli.succeed("show", point[0], "--as-of", point[1], "--format", "csv")
    }
    #expect(Self.normalized(shows) == Self.showsBefore + "\n")
    #expect(Self.normalized(lists) == Self.listsBefore + "\n")
    #expect(cli.succeed("check").contains("history            ok"))
  }

  /// `undo N` of each change set on its own copy, with `list` and `incident list` (CSV) after
  /// it, before the upgrade.
  static let undosBefore = #"""
    == undo 13
    Undid change set 13 (3 change(s)), recorded as change set 14.
    rc 0
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Pear""]",in the barn,,,0.9,Extremely suspicious!
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    10,Dingo,Dog,,medium,[],"",,,0.0,Unlikely
    id,fruit,fruit_id,occurred_at,paw_size,latitude,longitude,notes
    1,Pear,2,2026-01-02T11:00,,,,pear this time
    == undo 12
    Undid change set 12 (1 change(s)), recorded as change set 14.
    rc 0
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Pear""]",in the barn,,,1.0,Extremely suspicious!
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    10,Dingo,Dog,,medium,[],"",,,0.0,Unlikely
    id,fruit,fruit_id,occurred_at,paw_size,latitude,longitude,notes
    1,Apple,1,2026-01-01T10:00,small,1.5,2.5,bitten
    2,Fig,4,2026-01-03T12:00,,,,""
    == undo 11
    Undid change set 11 (4 change(s)), recorded as change set 14.
    rc 0
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Pear""]",in the barn,,,1.0,Extremely suspicious!
    2,Miko,Cat,,medium,"[""Plum""]","",22:00,06:00,0.5,Very suspicious
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    10,Dingo,Dog,,medium,[],"",,,0.0,Unlikely
    id,fruit,fruit_id,occurred_at,paw_size,latitude,longitude,notes
    1,Pear,2,2026-01-02T11:00,,,,pear this time
    2,Fig,4,2026-01-03T12:00,,,,""
    == undo 10
    Undid change set 10 (1 change(s)), recorded as change set 14.
    rc 0
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Pear""]",at home,,,1.0,Extremely suspicious!
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    10,Dingo,Dog,,medium,[],"",,,0.0,Unlikely
    id,fruit,fruit_id,occurred_at,paw_size,latitude,longitude,notes
    1,Pear,2,2026-01-02T11:00,,,,pear this time
    2,Fig,4,2026-01-03T12:00,,,,""
    == undo 9
    Undid change set 9 (1 change(s)), recorded as change set 14.
    rc 0
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Pear""]",in the barn,,,1.0,Extremely suspicious!
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    10,Dingo,Dog,,large,[],"",,,0.0,Unlikely
    id,fruit,fruit_id,occurred_at,paw_size,latitude,longitude,notes
    1,Pear,2,2026-01-02T11:00,,,,pear this time
    2,Fig,4,2026-01-03T12:00,,,,""
    == undo 8
    inspector: error: cannot undo change set 8: later change set(s) 9 changed the same rows
    hint: undo the later ones first, newest first ('inspector undo 9'); see 'inspector history'
    rc 65
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Pear""]",in the barn,,,1.0,Extremely suspicious!
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    10,Dingo,Dog,,medium,[],"",,,0.0,Unlikely
    id,fruit,fruit_id,occurred_at,paw_size,latitude,longitude,notes
    1,Pear,2,2026-01-02T11:00,,,,pear this time
    2,Fig,4,2026-01-03T12:00,,,,""
    == undo 7
    Undid change set 7 (2 change(s)), recorded as change set 14.
    rc 0
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Apple"",""Pear""]",in the barn,,,1.0,Extremely suspicious!
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    10,Dingo,Dog,,medium,[],"",,,0.0,Unlikely
    id,fruit,fruit_id,occurred_at,paw_size,latitude,longitude,notes
    1,Pear,2,2026-01-02T11:00,,,,pear this time
    2,Fig,4,2026-01-03T12:00,,,,""
    == undo 6
    inspector: error: cannot undo change set 6: later change set(s) 10 changed the same rows
    hint: undo the later ones first, newest first ('inspector undo 10'); see 'inspector history'
    rc 65
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Pear""]",in the barn,,,1.0,Extremely suspicious!
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    10,Dingo,Dog,,medium,[],"",,,0.0,Unlikely
    id,fruit,fruit_id,occurred_at,paw_size,latitude,longitude,notes
    1,Pear,2,2026-01-02T11:00,,,,pear this time
    2,Fig,4,2026-01-03T12:00,,,,""
    == undo 5
    inspector: error: cannot undo change set 5: later change set(s) 6, 10 changed the same rows
    hint: undo the later ones first, newest first ('inspector undo 10'); see 'inspector history'
    rc 65
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Pear""]",in the barn,,,1.0,Extremely suspicious!
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    10,Dingo,Dog,,medium,[],"",,,0.0,Unlikely
    id,fruit,fruit_id,occurred_at,paw_size,latitude,longitude,notes
    1,Pear,2,2026-01-02T11:00,,,,pear this time
    2,Fig,4,2026-01-03T12:00,,,,""
    == undo 3
    Undid change set 3 (2 change(s)), recorded as change set 14.
    rc 0
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Pear""]",in the barn,,,1.0,Extremely suspicious!
    10,Dingo,Dog,,medium,[],"",,,0.0,Unlikely
    id,fruit,fruit_id,occurred_at,paw_size,latitude,longitude,notes
    1,Pear,2,2026-01-02T11:00,,,,pear this time
    2,Fig,4,2026-01-03T12:00,,,,""
    == undo 2
    inspector: error: cannot undo change set 2: later change set(s) 5, 6, 7, 10, 11, 12, 13 changed the same rows
    hint: undo the later ones first, newest first ('inspector undo 13'); see 'inspector history'
    rc 65
    id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,suspicion_label
    1,Catty,Crow,X,small,"[""Pear""]",in the barn,,,1.0,Extremely suspicious!
    4,Bobo,Bear,,large,[],"",,,0.1,Unlikely
    10,Dingo,Dog,,medium,[],"",,,0.0,Unlikely
    id,fruit,fruit_id,occurred_at,paw_size,latitude,longitude,notes
    1,Pear,2,2026-01-02T11:00,,,,pear this time
    2,Fig,4,2026-01-03T12:00,,,,""
    """#

  /// What the upgraded history answers differently, and why (docs/history.md "Undo"): change
  /// set 7's key move is two changes now (a delete and an insert), and change set 8's key move
  /// is a delete of suspect 3's row, which change set 2 added.
  static let undoDifferences: [(before: String, after: String)] = [
    (
      "Undid change set 7 (2 change(s)), recorded as change set 14.",
      "Undid change set 7 (3 change(s)), recorded as change set 14."
    ),
    (
      "later change set(s) 5, 6, 7, 10, 11, 12, 13 changed",
      "later change set(s) 5, 6, 7, 8, 10, 11, 12, 13 changed"
    ),
  ]

  @Test func undoOfEachChangeSetAfterTheUpgrade() throws {
    var transcript = ""
    for id in [13, 12, 11, 10, 9, 8, 7, 6, 5, 3, 2] {
      let cli = try Self.fileAtSchema13()
      cli.succeed("migrate", "up")
      let outcome = cli.run("undo", "\(id)")
      transcript +=
        "== undo \(id)\n" + outcome.standardOutput + outcome.standardError
        + "rc \(outcome.status)\n"
        + Self.normalized(
          cli.succeed("list", "--format", "csv")
            + cli.succeed("incident", "list", "--format", "csv"))
      if outcome.status == 0 { #expect(cli.succeed("check").contains("history            ok")) }
    }
    var expected = Self.undosBefore + "\n"
    for (before, after) in Self.undoDifferences {
      #expect(expected.contains(before))
      expected = expected.replacingOccurrences(of: before, with: after)
    }
    #expect(transcript == expected)
  }

  /// CSV's line ends as the captures above hold them.
  static func normalized(_ text: String) -> String {
    text.replacingOccurrences(of: "\r\n", with: "\n")
  }
}
