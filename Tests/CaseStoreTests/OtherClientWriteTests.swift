import SQLiteKit
import Testing

@testable import CaseStore

/// Writes through plain SQL, as the sqlite3 shell, sqlite-utils or Python make them: the
/// schema's triggers (migration 0005) keep every derived column right or refuse the write, so
/// no command acts on a wrong key or shows a wrong level.
@Suite("Writes from other clients")
struct OtherClientWriteTests {
  // MARK: - The mirrored suspicion level

  @Test func anUpdateOfTheMirroredLevelIsRefused() throws {
    let database = try seededDatabase()
    #expect(throws: SQLiteError.self) {
      try database.connection.execute("UPDATE animals SET suspicion_level = 0.9 WHERE id = 1")
    }
    #expect(try level(database, id: 1) == 0.0)
    // Had it been stored, the fish would rank first; all levels are 0, so names decide.
    #expect(try topNames(database, 2) == ["Catie", "Cornelius"])
    // Writing the value it already mirrors is allowed (a no-op).
    try database.connection.execute("UPDATE animals SET suspicion_level = 0.0 WHERE id = 1")
  }

  @Test func theMirroredLevelFollowsSuspicionLevels() throws {
    let database = try seededDatabase()
    try database.connection.execute(
      """
      INSERT INTO suspicion_levels (animal_id, level) VALUES (4, 0.9);
      UPDATE suspicion_levels SET level = 0.25 WHERE animal_id = 4;
      INSERT INTO suspicion_levels (animal_id, level) VALUES (3, 0.5);
      DELETE FROM suspicion_levels WHERE animal_id = 3;
      """)
    #expect(try level(database, id: 4) == 0.25)
    #expect(try level(database, id: 3) == 0.0)
    #expect(try topNames(database, 2) == ["Catie", "Cornelius"])
    #expect(
      try database.read { try $0.suspects.find("crow").suspicionLevel } == SuspicionLevel(0.25))
  }

  @Test func anInsertThatSuppliesTheMirroredLevelGetsTheTrueOne() throws {
    let database = try seededDatabase()
    try database.connection.execute(
      """
      INSERT INTO animals (name, species, paw_size, suspicion_level)
      VALUES ('Foxy', 'Fox', 'small', 0.7)
      """)
    #expect(try level(database, id: 11) == 0.0)
    #expect(try database.read { try $0.suspects.find("fox").suspicionLevel } == .zero)
  }

  // MARK: - Folded keys

  @Test func wrongKeysSuppliedByAnInsertAreRecomputed() throws {
    let database = try seededDatabase()
    try insertWithKeys(database, "'Foxy', 'Fox', 'small', 'zzz', 'yyy'")
    #expect(try keys(database, id: 11) == ["fox", "foxy", "0"])
    #expect(try database.read { try $0.suspects.find("FOX").name } == "Foxy")
    #expect(try database.read { try $0.suspects.find("foxy").species } == "Fox")
    // The species is taken: inspector and plain SQL both refuse a second fox.
    #expect(throws: CaseError.duplicateSpecies("FOX")) {
      try database.write(nil) {
        try $0.suspects.add(NewSuspect(name: "Other", species: "FOX", pawSize: .large))
      }
    }
    #expect(throws: SQLiteError.self) {
      try database.connection.execute(
        "INSERT INTO animals (name, species, paw_size, species_key) VALUES ('O', 'fOx', 'small', 'q')"
      )
    }
    #expect(try database.read { try $0.suspects.count() } == 11)
  }

  @Test func aKeyChangedByHandIsRecomputed() throws {
    let database = try seededDatabase()
    try database.connection.execute("UPDATE animals SET species_key = 'wolf' WHERE id = 4")
    #expect(try keys(database, id: 4) == ["crow", "catie", "0"])
    try database.connection.execute("UPDATE fruits SET name_key = 'x' WHERE id = 1")
    #expect(
      try database.connection.scalar("SELECT name_key FROM fruits WHERE id = 1")?.textValue
        == "golden gem apple")
  }

  @Test func textBeyondASCIIIsMarkedAndRefoldedByInspector() throws {
    let database = try seededDatabase()
    try insertWithKeys(database, "'\u{C1}bel', '\u{3A9}mega', 'small', 'wrong', 'wrong'")
    // SQL folds A-Z and Latin-1 only, and marks the row for inspector.
    #expect(try keys(database, id: 11) == ["\u{3A9}mega", "abel", "1"])
    #expect(database.refoldPendingKeysIfAny())
    #expect(try keys(database, id: 11) == ["\u{3C9}mega", "abel", "0"])
    #expect(!database.refoldPendingKeysIfAny())
  }

  @Test func namesInsertedThroughSQLSortInTheirPlace() throws {
    let database = try seededDatabase()
    // Ties on level 0 are ordered by name ignoring case and accents: Aaron and Ábel come first.
    try database.connection.execute(
      """
      INSERT INTO animals (name, species, paw_size, name_key) VALUES ('Aaron', 'Ant', 'small', 'zzz');
      INSERT INTO animals (name, species, paw_size) VALUES ('\u{C1}bel', 'Bee', 'small');
      """)
    database.refoldPendingKeysIfAny()
    #expect(try topNames(database, 3) == ["Aaron", "\u{C1}bel", "Catie"])
  }

  // MARK: - Blank names

  @Test(arguments: ["\t", "\u{A0}", "\u{3000}", " \u{2003} ", "\u{85}", "\n"])
  func whiteSpaceOnlyNamesAreRefusedByPlainSQL(blank: String) throws {
    let database = try seededDatabase()
    let statements = [
      "INSERT INTO animals (name, species, paw_size) VALUES (?, 'Newt', 'small')",
      "INSERT INTO animals (name, species, paw_size) VALUES ('Newt', ?, 'small')",
      "UPDATE animals SET name = ? WHERE id = 1",
      "UPDATE animals SET species = ? WHERE id = 1",
      "INSERT INTO fruits (name, color) VALUES (?, 'red')",
      "UPDATE fruits SET name = ? WHERE id = 1",
    ]
    for sql in statements {
      #expect(throws: SQLiteError.self, "\(sql)") {
        try database.connection.execute(sql, [blank])
      }
    }
    #expect(try database.read { try $0.suspects.count() } == 10)
    #expect(try database.read { try $0.suspects.find("id:1").name } == "Fabrizio")
    #expect(try database.read { try $0.fruits.find("Golden Gem Apple").id } == 1)
  }

  // MARK: - Helpers

  /// The first names of the ranking without an incident.
  private func topNames(_ database: CaseDatabase, _ count: Int) throws -> [String] {
    try SuspicionRanking(database: database).bySuspicionLevel(limit: count).map(\.suspect.name)
  }

  private func level(_ database: CaseDatabase, id: Int64) throws -> Double? {
    try database.connection.scalar("SELECT suspicion_level FROM animals WHERE id = ?", [id])?
      .doubleValue
  }

  /// Inserts a suspect through plain SQL that supplies its own keys: `values` are the name,
  /// species, paw size, species_key and name_key, as SQL literals.
  private func insertWithKeys(_ database: CaseDatabase, _ values: String) throws {
    try database.connection.execute(
      "INSERT INTO animals (name, species, paw_size, species_key, name_key) VALUES (\(values))")
  }

  private func keys(_ database: CaseDatabase, id: Int64) throws -> [String] {
    let row = try database.connection.prepare(
      "SELECT species_key, name_key, keys_pending FROM animals WHERE id = ?")
    try row.bind([id])
    guard try row.step() else { return [] }
    return [row.text(at: 0), row.text(at: 1), String(row.int64(at: 2))]
  }
}
