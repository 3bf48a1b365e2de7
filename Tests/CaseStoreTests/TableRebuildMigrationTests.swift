import SQLiteKit
import Testing

@testable import CaseStore

/// A migration may rebuild a table the way SQLite's 12-step procedure does
/// (<https://sqlite.org/lang_altertable.html#otheralter>): the migrator runs it with foreign
/// keys off, so dropping `animals` deletes none of its children, checks `foreign_key_check`
/// before the commit, and switches foreign keys on again afterwards.
@Suite struct TableRebuildMigrationTests {
  // MARK: - Fixtures

  /// The seed case plus an interview for three suspects and a second incident.
  private func caseWithInterviews() throws -> CaseDatabase {
    let database = try seededDatabase()
    let crow = try database.id(ofSpecies: "Crow")
    let raccoon = try database.id(ofSpecies: "Raccoon")
    let duck = try database.id(ofSpecies: "Duck")
    try database.write(nil) {
      try $0.suspects.setAlibi(id: crow, "Guarding the Pink Pearl Apple tree")
    }
    try database.write(nil) { try $0.suspects.setAlibi(id: raccoon, "Washing acorns at the pond") }
    try database.write(nil) {
      try $0.suspects.setSleepSchedule(
        id: crow,
        SleepSchedule(
          sleep: ClockTime(hour: 23, minute: 15)!, wake: ClockTime(hour: 5, minute: 45)!))
    }
    _ = try database.write(nil) { try $0.suspects.addStandardSleepScheduleIfMissing(id: duck) }
    try database.write(nil) { try $0.suspects.setSuspicionLevel(id: crow, SuspicionLevel(0.75)!) }
    try database.write(nil) {
      try $0.suspects.setSuspicionLevel(id: raccoon, SuspicionLevel(0.25)!)
    }
    _ = try database.write(nil) {
      try $0.incidents.add(
        NewIncident(
          fruit: "Golden Nectar Plum",
          occurredAt: LocalDateTime(
            year: 2024, month: 5, day: 18, time: ClockTime(hour: 6, minute: 5)!)!,
          pawSize: .medium, notes: "Beak marks"))
    }
    return database
  }

  /// Every table's rows (and the schema's SQL), to prove nothing changed.
  private func dump(_ database: CaseDatabase, excluding excluded: Set<String> = [])
    throws -> [String: [[SQLiteValue]]]
  {
    var tables: [String: [[SQLiteValue]]] = [:]
    if !excluded.contains("sqlite_schema") {
      tables["sqlite_schema"] = try database.rows(
        "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name")
    }
    for row in try database.rows(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    {
      guard let name = row.first?.textValue, !excluded.contains(name) else { continue }
      tables[name] = try database.rows("SELECT * FROM \"\(name)\" ORDER BY 1, 2")
    }
    return tables
  }

  /// A migration after the embedded ones that rebuilds `animals` in the 12-step way: a new
  /// table with the same columns and a wider paw-size `CHECK`, rows copied (those `copying`
  /// selects), the old table dropped, the new one renamed, its indexes and triggers recreated
  /// from the SQL `sqlite_schema` holds for them.
  private func rebuildAnimals(in database: CaseDatabase, copying filter: String = "1")
    throws -> Migrator
  {
    let tableSQL = try #require(
      try database.connection.scalar(
        "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'animals'")?.textValue)
    let newTableSQL =
      tableSQL
      .replacing("CREATE TABLE animals (", with: "CREATE TABLE animals_new (")
      .replacing(
        "paw_size IN ('small', 'medium', 'large')",
        with: "paw_size IN ('small', 'medium', 'large', 'huge')")
    #expect(newTableSQL.hasPrefix("CREATE TABLE animals_new ("))
    #expect(newTableSQL.contains("'huge'"))
    // Step 3: the indexes and triggers on animals, and the triggers on other tables whose
    // bodies name it (suspicion_levels mirrors the level onto animals). Since SQLite 3.26 the
    // rename re-checks every trigger, so those must be dropped before the old table goes.
    let dependents = try database.rows(
      """
      SELECT name, tbl_name, sql FROM sqlite_schema
      WHERE type IN ('index', 'trigger') AND sql IS NOT NULL
        AND (tbl_name = 'animals' OR sql LIKE '%UPDATE animals%')
      ORDER BY rowid
      """)
    let recreate = dependents.compactMap { $0[2].textValue }
    let dropFirst = dependents.filter { $0[1] != .text("animals") }.compactMap { $0[0].textValue }
    #expect(dropFirst.count == 3)
    #expect(recreate.count >= 11)
    let embedded = CaseDatabase.migrator.migrations
    let rebuild = Migration(
      version: CaseDatabase.migrator.latestVersion + 1, name: "rebuild_animals",
      sql: """
        \(newTableSQL);
        INSERT INTO animals_new SELECT * FROM animals WHERE \(filter);
        \(dropFirst.map { "DROP TRIGGER \($0);" }.joined(separator: "\n"))
        DROP TABLE animals;
        ALTER TABLE animals_new RENAME TO animals;
        \(recreate.joined(separator: ";\n"));
        """)
    return Migrator(migrations: embedded + [rebuild])
  }

  // MARK: - Tests

  @Test func rebuildingAnimalsKeepsEveryChildRow() throws {
    let database = try caseWithInterviews()
    let before = try dump(database, excluding: ["schema_migrations", "sqlite_schema"])
    #expect(before["favorite_fruits"]?.count == 27)
    #expect(before["alibis"]?.count == 2)
    #expect(before["sleep_schedules"]?.count == 2)
    #expect(before["suspicion_levels"]?.count == 2)
    #expect(before["incidents"]?.count == 2)
    let migrator = try rebuildAnimals(in: database)

    let applied = try migrator.migrate(database.connection)

    #expect(applied.map(\.name) == ["rebuild_animals"])
    let after = try dump(database, excluding: ["schema_migrations", "sqlite_schema"])
    for (table, rows) in before {
      #expect(after[table] == rows, "\(table)")
    }
    #expect(Set(after.keys) == Set(before.keys))
    let crow = try database.read { try $0.suspects.find("crow") }
    #expect(
      crow.favoriteFruits == ["Pink Pearl Apple", "Golden Nectar Plum", "Hauer Pippin Apple"])
    #expect(crow.alibi == "Guarding the Pink Pearl Apple tree")
    #expect(crow.sleepSchedule.map { "\($0.sleep)-\($0.wake)" } == "23:15-05:45")
    #expect(crow.suspicionLevel.value == 0.75)
    #expect(try database.read { try $0.suspects.find("Raccoon").favoriteFruits.count } == 4)
    #expect(try database.read { try $0.suspects.find("Duck").sleepSchedule } == .standard)
    #expect(
      try database.read { try $0.incidents.all().map(\.fruit) } == [
        "Pink Pearl Apple", "Golden Nectar Plum",
      ])
    #expect(try database.connection.scalar("PRAGMA foreign_keys") == .integer(1))
    #expect(try database.connection.foreignKeyCheck().isEmpty)
    #expect(try database.connection.integrityCheck() == ["ok"])
    // The new CHECK is in force, and the recreated triggers still mirror the level.
    try database.connection.execute(
      "INSERT INTO animals (name, species, paw_size) VALUES ('Gus', 'Goose', 'huge')")
    try database.connection.execute(
      "INSERT INTO suspicion_levels (animal_id, level) SELECT id, 0.5 FROM animals"
        + " WHERE species = 'Goose'")
    #expect(
      try database.rows("SELECT species_key, suspicion_level FROM animals WHERE name = 'Gus'")
        == [[.text("goose"), .real(0.5)]])
  }

  @Test func rebuildThatLeavesDanglingRowsIsRolledBackAndNamed() throws {
    let database = try caseWithInterviews()
    let before = try dump(database)
    let crow = try database.id(ofSpecies: "Crow")
    // Copies every suspect but the crow: her favourites, alibi, schedule and level dangle.
    let migrator = try rebuildAnimals(in: database, copying: "id <> \(crow)")

    let error = #expect(throws: MigrationError.self) { try migrator.migrate(database.connection) }

    guard case .foreignKeyViolation(let version, let name, let violations) = error else {
      Issue.record("expected a foreign key violation, got \(String(describing: error))")
      return
    }
    #expect(version == CaseDatabase.migrator.latestVersion + 1)
    #expect(name == "rebuild_animals")
    #expect(
      violations.map(\.description).sorted() == [
        "alibis row \(crow) -> animals", "favorite_fruits row ? -> animals",
        "favorite_fruits row ? -> animals", "favorite_fruits row ? -> animals",
        "sleep_schedules row \(crow) -> animals", "suspicion_levels row \(crow) -> animals",
      ])
    #expect(try dump(database) == before)
    #expect(try database.connection.scalar("PRAGMA foreign_keys") == .integer(1))
    #expect(database.connection.isAutocommit)
    #expect(try database.read { try $0.suspects.find("crow").favoriteFruits.count } == 3)
  }
}
