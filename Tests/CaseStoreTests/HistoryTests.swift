import Foundation
import SQLiteKit
import Testing

@testable import CaseStore

/// The case history (migration 0007): every write of a documented table is recorded, by
/// inspector and by any other client, and grouped into change sets.
@Suite("Case history")
struct HistoryTests {
  // MARK: - What is recorded

  @Test func oneChangeSetPerInspectorTransactionWithActorAndNote() throws {
    let database = try seededDatabase()
    let before = try database.rowCount("history_change_sets")
    let attribution = try ChangeAttribution(actor: "ann", note: "saw it at the orchard")
    // One transaction with two changes of two tables.
    try database.write(attribution) { db in
      try db.suspects.setSuspicionLevel(id: 4, SuspicionLevel(parsing: "0.9"))
      try db.suspects.setAlibi(id: 4, "Nest.")
    }
    #expect(try database.rowCount("history_change_sets") == before + 1)
    let changes = try latestChanges(database)
    #expect(changes.map(\.changeSet.actor) == ["ann", "ann"])
    #expect(changes.map(\.changeSet.note) == ["saw it at the orchard", "saw it at the orchard"])
    #expect(changes.map(\.table) == ["suspicion_levels", "alibis"])
    #expect(changes.map(\.operation) == [.insert, .insert])
    #expect(pairs(changes[0].after) == ["animal_id=4", "level=0.9"])
    #expect(pairs(changes[1].after) == ["animal_id=4", "statement=Nest."])
    #expect(changes.allSatisfy { $0.suspectName == "Catie" && $0.before == nil })
    // No change set stays open once the transaction has committed.
    #expect(try database.rowCount("history_context") == 0)
  }

  @Test func aTransactionThatChangesNothingLeavesNoChangeSet() throws {
    let database = try seededDatabase()
    let attribution = try ChangeAttribution(actor: "ann")
    let before = try database.rowCount("history_change_sets")
    try database.write(attribution) { db in
      try db.connection.execute("UPDATE alibis SET statement = 'x' WHERE animal_id = 99")
    }
    _ = try AdHocQuery(sql: "SELECT 1").run(writingTo: database, attribution: attribution)
    #expect(try database.rowCount("history_change_sets") == before)
  }

  @Test func sqlWriteIsOneChangeSetWithItsActorAndNote() throws {
    let database = try seededDatabase()
    let attribution = try ChangeAttribution(actor: "ops", note: "night shift")
    _ = try AdHocQuery(
      sql: """
        UPDATE suspicion_levels SET level = 0.2;
        INSERT INTO suspicion_levels (animal_id, level) VALUES (1, 0.5), (2, 0.75);
        DELETE FROM alibis;
        """
    ).run(writingTo: database, attribution: attribution)
    let changes = try latestChanges(database)
    #expect(changes.map(\.changeSet.actor) == ["ops", "ops"])
    #expect(changes.map(\.changeSet.note) == ["night shift", "night shift"])
    #expect(changes.map(\.suspectName) == ["Fabrizio", "Soloman"])
  }

  @Test func aFailingTransactionRecordsNothing() throws {
    let database = try seededDatabase()
    let attribution = try ChangeAttribution(actor: "ann")
    let entries = try database.rowCount("history_changes")
    let sets = try database.rowCount("history_change_sets")
    #expect(throws: SQLiteError.self) {
      _ = try AdHocQuery(
        sql: """
          INSERT INTO alibis (animal_id, statement) VALUES (1, 'Swimming.');
          INSERT INTO suspicion_levels (animal_id, level) VALUES (1, 7);
          """
      ).run(writingTo: database, attribution: attribution)
    }
    #expect(try database.rowCount("history_changes") == entries)
    #expect(try database.rowCount("history_change_sets") == sets)
  }

  @Test func nullToAValueAndBackAreChanges() throws {
    let database = try seededDatabase()
    try database.connection.execute(
      "INSERT INTO animals (name, species, paw_size) VALUES ('Bob', 'Badger', 'large')")
    try database.connection.execute("UPDATE animals SET emoji = '🦡' WHERE species = 'Badger'")
    // Statements of another client in the same millisecond share a change set: the update is
    // the last change either way.
    var change = try #require(try latestChanges(database).last)
    #expect(change.operation == .update)
    #expect(pairs(change.before) == ["emoji=NULL"])
    #expect(pairs(change.after) == ["emoji=🦡"])
    #expect(change.changeSet.actor == nil)
    try database.connection.execute("UPDATE animals SET emoji = NULL WHERE species = 'Badger'")
    change = try #require(try latestChanges(database).last)
    #expect(pairs(change.before) == ["emoji=🦡"])
    #expect(pairs(change.after) == ["emoji=NULL"])
  }

  @Test func anUpdateThatChangesNothingRecordsNothing() throws {
    let database = try seededDatabase()
    let entries = try database.rowCount("history_changes")
    try database.connection.execute(
      """
      UPDATE animals SET name = name, emoji = emoji;
      UPDATE fruits SET color = color WHERE name = 'Elstar Apple';
      INSERT INTO suspicion_levels (animal_id, level) VALUES (4, 0.5);
      UPDATE suspicion_levels SET level = 0.5 WHERE animal_id = 4;
      """)
    // Only the insert: neither the no-op updates nor the mirrored animals.suspicion_level.
    #expect(try database.rowCount("history_changes") == entries + 1)
    let changes = try latestChanges(database)
    #expect(changes.map(\.table) == ["suspicion_levels"])
  }

  @Test func derivedColumnsMakeNoEntries() throws {
    let database = try seededDatabase()
    let entries = try database.rowCount("history_changes")
    // The keys triggers rewrite species_key, name_key and their folded_from after this; the
    // level triggers rewrite animals.suspicion_level.
    try database.connection.execute(
      """
      UPDATE animals SET species_key = 'wrong' WHERE id = 1;
      UPDATE suspicion_levels SET level = 1 WHERE animal_id = 1;
      INSERT INTO suspicion_levels (animal_id, level) VALUES (2, 1);
      """)
    #expect(try database.rowCount("history_changes") == entries + 1)
    try database.connection.execute("UPDATE animals SET name = 'Rénardo' WHERE id = 10")
    // The name is one entry; the keys the triggers and inspector's re-fold write are none.
    #expect(try database.rowCount("history_changes") == entries + 2)
    try database.write(nil) { _ in }
    #expect(try database.rowCount("history_changes") == entries + 2)
    #expect(pairs(try latestChanges(database).last?.after) == ["name=Rénardo"])
  }

  @Test func cascadingDeletesAreOneChangeSetAndTheSuspectStaysReachable() throws {
    let database = try seededDatabase()
    try database.connection.execute("DELETE FROM animals WHERE species = 'Raccoon'")
    let changes = try latestChanges(database)
    #expect(Set(changes.map(\.changeSet.id)).count == 1)
    #expect(changes.filter { $0.table == "favorite_fruits" }.count == 4)
    #expect(changes.last?.table == "animals")
    #expect(
      pairs(changes.last?.before) == [
        "id=10", "name=Rénard", "species=Raccoon", "paw_size=medium", "emoji=🦝",
      ])
    let history = CaseHistory(database: database)
    #expect(try history.resolveSuspect("id:10") == 10)
    #expect(throws: CaseError.unknownSuspect("raccoon")) { try history.resolveSuspect("raccoon") }
    var removed: [CaseHistory.Change] = []
    try history.forEachPage(CaseHistory.Filter(animalID: 10, limit: 1)) { removed += $0 }
    #expect(removed.count == 5)
    #expect(removed.allSatisfy { $0.suspectName == "Rénard" })
  }

  @Test func aWriteFromTheStockSqlite3ShellIsRecorded() throws {
    try withTemporaryFile { path in
      do {
        let database = try CaseDatabase(path: path, access: .create)
        try database.write(nil) { try SeedCase.load(into: $0, on: seedDay) }
      }
      try runSqlite3(
        path,
        """
        PRAGMA foreign_keys = ON;
        BEGIN;
        UPDATE suspicion_levels SET level = 0.4 WHERE animal_id = 4;
        INSERT INTO suspicion_levels (animal_id, level) VALUES (4, 0.8);
        INSERT INTO alibis (animal_id, statement) VALUES (2, 'Under a leaf.');
        COMMIT;
        """)
      let database = try CaseDatabase(path: path, access: .readOnly)
      // Change set 1 is the seed's (one inspector transaction); the shell's come after it.
      var changes: [CaseHistory.Change] = []
      try database.read {
        try $0.history.forEachPage { changes += $0.filter { $0.changeSet.id > 1 } }
      }
      let recorded = changes.map { "\($0.table) \($0.operation.rawValue) \(pairs($0.after))" }
      #expect(
        recorded.sorted() == [
          #"alibis insert ["animal_id=2", "statement=Under a leaf."]"#,
          #"suspicion_levels insert ["animal_id=4", "level=0.8"]"#,
        ])
      #expect(changes.allSatisfy { $0.changeSet.actor == nil && $0.changeSet.note == nil })
      let grouping = try database.rows(
        "SELECT DISTINCT grouping FROM history_change_sets WHERE id > 1")
      #expect(grouping == [[.text("statement")]])
    }
  }

  // MARK: - Existing files

  @Test func theMigrationRecordsASnapshotOfTheRowsThatExist() throws {
    let connection = try Connection(path: ":memory:")
    try CaseDatabase.migrator.migrate(connection, upTo: 5)
    try connection.execute(
      """
      INSERT INTO fruits (name, color) VALUES ('Elstar Apple', 'yellow');
      INSERT INTO animals (name, species, paw_size) VALUES ('Catie', 'Crow', 'small');
      INSERT INTO favorite_fruits (animal_id, fruit_id, position) VALUES (1, 1, 0);
      INSERT INTO suspicion_levels (animal_id, level) VALUES (1, 0.9);
      INSERT INTO incidents (fruit_id, occurred_at, latitude, longitude)
        VALUES (1, '2024-05-17T09:41', 37.334371, -122.009558);
      """)
    try CaseDatabase.migrator.migrate(connection)
    let sets = try connection.scalar(
      "SELECT count(*) FROM history_change_sets WHERE note = 'snapshot at migration'")
    #expect(sets == .integer(1))
    // 0007's snapshot, as 0014 converted it: one insert per row, the whole row.
    let rows = try connection.prepare(
      """
      SELECT table_id || ' ' || key1 || coalesce(',' || key2, '') || ' op ' || operation || ' '
        || quote(v1) || ',' || quote(v2) || ',' || quote(v3) || ',' || quote(v4) || ','
        || quote(v5) || ',' || quote(v6)
      FROM history_changes ORDER BY id
      """)
    var entries: [String] = []
    while try rows.step() {
      entries.append(rows.row().compactMap(\.textValue).joined(separator: " "))
    }
    #expect(
      entries == [
        "2 1 op 1 'Catie','Crow','small',NULL,NULL,NULL",
        "1 1 op 1 'Elstar Apple','yellow',NULL,NULL,NULL,NULL",
        "3 1,1 op 1 0,NULL,NULL,NULL,NULL,NULL",
        "6 1 op 1 0.9,NULL,NULL,NULL,NULL,NULL",
        "7 1 op 1 1,'2024-05-17T09:41',NULL,37.334371,-122.009558,''",
      ])
  }

  @Test func aNewFileStartsWithAnEmptyHistory() throws {
    let database = try CaseDatabase()
    #expect(try database.rowCount("history_change_sets") == 0)
    #expect(try database.rowCount("history_changes") == 0)
  }

  // MARK: - The schema test

  /// Derived columns: computed by the schema's triggers from the recorded ones, never recorded.
  /// A new column of a documented table must be recorded or listed as not recorded in the one
  /// description of the recorded tables (``RecordedTable/all``).
  static let derivedColumns: [String: Set<String>] = Dictionary(
    uniqueKeysWithValues: RecordedTable.all.map { ($0.name, Set($0.unrecorded)) })

  static let documentedTables = RecordedTable.all.map(\.name)

  @Test func everyColumnOfEveryDocumentedTableIsRecorded() throws {
    let database = try CaseDatabase()
    #expect(try Self.unrecordedColumns(database.connection) == [])
  }

  @Test func aColumnAddedWithoutHistoryFailsTheSchemaTest() throws {
    let database = try CaseDatabase()
    try database.connection.execute("ALTER TABLE fruits ADD COLUMN origin TEXT")
    try database.connection.execute("ALTER TABLE alibis ADD COLUMN witness TEXT")
    #expect(try Self.unrecordedColumns(database.connection) == ["alibis.witness", "fruits.origin"])
  }

  /// `table.column` for each column of a documented table (from `PRAGMA table_info`) that is
  /// neither derived nor recorded by all three of the table's history triggers: the insert
  /// trigger records its new value, the update trigger compares it (`OLD.c IS NOT NEW.c`) and
  /// records the new value, the delete trigger records the old key (a key column's old value).
  static func unrecordedColumns(_ connection: Connection) throws -> [String] {
    var missing: [String] = []
    for table in documentedTables {
      let columns = try connection.prepare("SELECT name FROM pragma_table_info(?)")
      try columns.bind([table])
      var names: [String] = []
      while try columns.step() { names.append(columns.row()[0].textValue ?? "") }
      func trigger(_ operation: String) throws -> String {
        try connection.scalar(
          "SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = ?",
          ["history_\(table)_after_\(operation)"])?.textValue ?? ""
      }
      let (insert, update, delete) = (
        try trigger("insert"), try trigger("update"), try trigger("delete")
      )
      let key = RecordedTable.named(table)?.key ?? []
      for name in names where !(derivedColumns[table] ?? []).contains(name) {
        let recorded =
          mentions(insert, "NEW.\(name)")
          && update.contains("OLD.\(name) IS NOT NEW.\(name)")
          && mentions(
            update.replacingOccurrences(of: "OLD.\(name) IS NOT NEW.\(name)", with: ""),
            "NEW.\(name)")
          && (!key.contains(name) || mentions(delete, "OLD.\(name)"))
        if !recorded { missing.append("\(table).\(name)") }
      }
    }
    return missing.sorted()
  }

  /// Whether `sql` names `reference` as a whole (`NEW.name`, not `NEW.name_key`).
  static func mentions(_ sql: String, _ reference: String) -> Bool {
    var rest = sql[...]
    while let range = rest.range(of: reference) {
      let next = rest[range.upperBound...].first
      if next.map({ !($0.isLetter || $0.isNumber || $0 == "_") }) ?? true { return true }
      rest = rest[range.upperBound...]
    }
    return false
  }

  // MARK: - Helpers

  /// The changes of the newest change set.
  private func latestChanges(_ database: CaseDatabase) throws -> [CaseHistory.Change] {
    var changes: [CaseHistory.Change] = []
    try database.read { try $0.history.forEachPage(CaseHistory.Filter(limit: 1)) { changes += $0 } }
    return changes
  }

  /// `column=value` for each recorded value.
  private func pairs(_ values: [(column: String, value: AdHocValue)]?) -> [String] {
    (values ?? []).map { column, value in
      switch value {
      case .null: "\(column)=NULL"
      case .integer(let integer): "\(column)=\(integer)"
      case .real(let double): "\(column)=\(double)"
      case .text(let text): "\(column)=\(text)"
      case .blob: "\(column)=blob"
      }
    }
  }

  /// Runs a script with the stock sqlite3 shell, as another client would.
  private func runSqlite3(_ path: String, _ sql: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [path]
    let input = Pipe()
    process.standardInput = input
    try process.run()
    input.fileHandleForWriting.write(Data(sql.utf8))
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }
}
