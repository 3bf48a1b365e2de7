import SQLiteKit
import Testing

@testable import CaseStore

@Suite("Schema: constraints hold for plain SQL")
struct SchemaTests {
  @Test(
    "refuses bad rows written by plain SQL",
    arguments: [
      "INSERT INTO animals (name, species, paw_size) VALUES ('Hal', 'Hippo', 'huge')",
      "INSERT INTO animals (name, species, paw_size) VALUES ('', 'Hippo', 'small')",
      "INSERT INTO animals (name, species, paw_size) VALUES ('   ', 'Hippo', 'small')",
      "INSERT INTO animals (name, species, paw_size) VALUES ('Hal', ' ', 'small')",
      "INSERT INTO animals (name, species, paw_size) VALUES (NULL, 'Hippo', 'small')",
      "INSERT INTO animals (name, species, paw_size) VALUES ('Hal', 'Hippo', 'Small')",
      "INSERT INTO animals (name, species, paw_size, emoji) VALUES ('Hal', 'Hippo', 'small', '')",
      "INSERT INTO animals (name, species, paw_size) VALUES ('Hal', 'fISH', 'small')",
      "INSERT INTO animals (name, species, paw_size) VALUES ('Hal', 'RACCOON', 'small')",
      "INSERT INTO animals (name, species, paw_size) VALUES (replace(hex(zeroblob(10001)), '00', 'x'), 'H', 'small')",
      "UPDATE animals SET paw_size = 'huge' WHERE id = 1",
      "UPDATE animals SET species = 'crow' WHERE id = 1",
      "INSERT INTO suspicion_levels (animal_id, level) VALUES (1, 1.5)",
      "INSERT INTO suspicion_levels (animal_id, level) VALUES (1, -0.1)",
      "INSERT INTO suspicion_levels (animal_id, level) VALUES (1, 'high')",
      "INSERT INTO suspicion_levels (animal_id, level) VALUES (99, 0.5)",
      "INSERT INTO sleep_schedules (animal_id, sleep_at, wake_at) VALUES (1, '25:00', '06:30')",
      "INSERT INTO sleep_schedules (animal_id, sleep_at, wake_at) VALUES (1, '24:00', '06:30')",
      "INSERT INTO sleep_schedules (animal_id, sleep_at, wake_at) VALUES (1, '22:30', '6:30')",
      "INSERT INTO sleep_schedules (animal_id, sleep_at, wake_at) VALUES (1, '22:60', '06:30')",
      "INSERT INTO sleep_schedules (animal_id, sleep_at, wake_at) VALUES (1, '22:30', '06:30:00')",
      "INSERT INTO fruits (name, color) VALUES ('Durian', 'bluish!')",
      "INSERT INTO fruits (name, color) VALUES ('Durian', '#12345')",
      "INSERT INTO fruits (name, color) VALUES ('Durian', 'Red')",
      "INSERT INTO fruits (name, color) VALUES ('Durian', '')",
      "INSERT INTO fruits (name, color) VALUES ('elstar APPLE', 'red')",
      "INSERT INTO fruits (name, color) VALUES (' ', 'red')",
      "INSERT INTO favorite_fruits (animal_id, fruit_id, position) VALUES (1, 99, 5)",
      "INSERT INTO favorite_fruits (animal_id, fruit_id, position) VALUES (99, 1, 5)",
      "INSERT INTO favorite_fruits (animal_id, fruit_id, position) VALUES (1, 1, -1)",
      "INSERT INTO favorite_fruits (animal_id, fruit_id, position) VALUES (1, 19, 9)",
      "INSERT INTO alibis (animal_id, statement) VALUES (1, replace(hex(zeroblob(100001)), '00', 'x'))",
      "DELETE FROM fruits WHERE name = 'Pink Pearl Apple'",
    ])
  func refusesBadRows(sql: String) throws {
    let database = try seededDatabase()
    let snapshot = try Self.snapshot(database)
    let error = try #require(throws: SQLiteError.self) { try database.connection.execute(sql) }
    #expect(error.code == .constraint)
    #expect(try Self.snapshot(database) == snapshot)
  }

  @Test func plainInsertsOfDocumentedColumnsAreSeenByTheRepository() throws {
    let database = try seededDatabase()
    try database.connection.execute(
      """
      INSERT INTO fruits (name, color) VALUES ('Durian', '#A1B2C3');
      INSERT INTO animals (name, species, paw_size, emoji) VALUES ('Bob', 'Badger', 'large', '\u{1F9A1}');
      INSERT INTO favorite_fruits (animal_id, fruit_id, position)
        SELECT a.id, f.id, 0 FROM animals a, fruits f WHERE a.species = 'Badger' AND f.name = 'Durian';
      INSERT INTO favorite_fruits (animal_id, fruit_id, position) VALUES (11, 15, 1);
      INSERT INTO alibis (animal_id, statement) VALUES (11, 'Digging.');
      INSERT INTO sleep_schedules (animal_id, sleep_at, wake_at) VALUES (11, '13:00', '15:00');
      INSERT INTO suspicion_levels (animal_id, level) VALUES (11, 1);
      """)
    let badger = try database.read { try $0.suspects.find("BADGER") }
    #expect(badger.id == 11)
    #expect(badger.name == "Bob")
    #expect(badger.pawSize == .large)
    #expect(scalars(badger.emoji) == ["U+1F9A1"])
    #expect(badger.favoriteFruits == ["Durian", "Pink Pearl Apple"])
    #expect(badger.alibi == "Digging.")
    #expect(
      badger.sleepSchedule
        == SleepSchedule(
          sleep: try ClockTime(parsing: "13:00"), wake: try ClockTime(parsing: "15:00")))
    #expect(badger.suspicionLevel.value == 1)
    #expect(try database.read { try $0.suspects.find("bob").id } == 11)
    #expect(try database.read { try $0.fruits.find("durian").color } == "#A1B2C3")
    #expect(
      throws: CaseError.fruitInUse(
        "Pink Pearl Apple",
        by: [
          "Ding the Dove", "Catie the Crow", "Bob the Badger", "incident 1",
        ])
    ) {
      try database.write(nil) { try $0.fruits.remove("Pink Pearl Apple") }
    }
    // The repository now refuses the species and fruit name in another case.
    #expect(throws: CaseError.duplicateSpecies("badger")) {
      try database.write(nil) {
        try $0.suspects.add(NewSuspect(name: "Bo", species: "badger", pawSize: .small))
      }
    }
    #expect(throws: CaseError.duplicateFruit("DURIAN")) {
      try database.write(nil) { try $0.fruits.add(name: "DURIAN", color: "red") }
    }
    let top = try SuspicionRanking(database: database).bySuspicionLevel(limit: 1)
    #expect(top.map(\.suspect.name) == ["Bob"])
  }

  @Test func interviewRowsWithOnlyTheKeyGetTheDefaults() throws {
    let database = try seededDatabase()
    try database.connection.execute(
      """
      INSERT INTO alibis (animal_id) VALUES (2);
      INSERT INTO sleep_schedules (animal_id) VALUES (2);
      INSERT INTO suspicion_levels (animal_id) VALUES (2);
      """)
    let snail = try database.read { try $0.suspects.find("Snail") }
    #expect(snail.alibi == "")
    #expect(snail.hasNoAlibi)
    #expect(snail.sleepSchedule == .standard)
    #expect(snail.suspicionLevel == .zero)
  }

  @Test func deletingASuspectBySQLCascades() throws {
    let database = try seededDatabase()
    try database.write(nil) { try $0.suspects.setAlibi(id: 4, "Nest.") }
    try database.write(nil) {
      try $0.suspects.setSuspicionLevel(id: 4, try SuspicionLevel(parsing: "1"))
    }
    try database.connection.execute("DELETE FROM animals WHERE species = 'Crow'")
    try expectRowCounts(["favorite_fruits": 24, "alibis": 0, "suspicion_levels": 0], in: database)
    #expect(try database.rows("PRAGMA foreign_key_check").isEmpty)
  }

  @Test func documentedTablesAndColumnsExist() throws {
    let database = try CaseDatabase()
    let documented: [String: [String]] = [
      "animals": ["id", "name", "species", "paw_size", "emoji"],
      "fruits": ["id", "name", "color"],
      "favorite_fruits": ["animal_id", "fruit_id", "position"],
      "alibis": ["animal_id", "statement"],
      "sleep_schedules": ["animal_id", "sleep_at", "wake_at"],
      "suspicion_levels": ["animal_id", "level"],
      "schema_migrations": ["version", "name", "checksum", "applied_at"],
    ]
    for (table, columns) in documented {
      let present = try database.rows("SELECT name FROM pragma_table_info(?)", [table])
        .compactMap { $0.first?.textValue }
      #expect(Set(columns).isSubset(of: Set(present)), "\(table) has \(present)")
    }
  }

  @Test func schemaHasNoCustomCollationOrFunction() throws {
    let database = try CaseDatabase()
    let sql = try database.rows("SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL")
      .compactMap { $0.first?.textValue }.joined(separator: "\n")
    #expect(!sql.isEmpty)
    #expect(!sql.uppercased().contains("COLLATE"))
    #expect(try database.rows("PRAGMA integrity_check") == [["ok"]])
    #expect(try database.connection.scalar("PRAGMA foreign_keys") == .integer(1))
  }

  @Test func migrationIsRecorded() throws {
    let database = try CaseDatabase()
    let rows = try database.rows("SELECT version, name FROM schema_migrations ORDER BY version")
    #expect(rows.first == [.integer(1), .text("initial")])
    #expect(rows.count == CaseDatabase.migrator.migrations.count)
  }

  /// Every table's rows, to show that a refused statement changed nothing.
  private static func snapshot(_ database: CaseDatabase) throws -> [[[SQLiteValue]]] {
    try [
      "SELECT * FROM animals ORDER BY id", "SELECT * FROM fruits ORDER BY id",
      "SELECT * FROM favorite_fruits ORDER BY animal_id, fruit_id",
      "SELECT * FROM alibis ORDER BY animal_id",
      "SELECT * FROM sleep_schedules ORDER BY animal_id",
      "SELECT * FROM suspicion_levels ORDER BY animal_id",
    ].map { try database.rows($0) }
  }
}
