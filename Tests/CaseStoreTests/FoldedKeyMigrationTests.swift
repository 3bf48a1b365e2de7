import SQLiteKit
import Testing

@testable import CaseStore

/// Migration 0012 (`migrations/0012_folded_from.sql`): the marks of 0003 give way to the text
/// each key was folded from, on a file made at schema 11 with marked and unmarked Unicode rows.
struct FoldedKeyMigrationTests {
  /// A schema-11 file holding, besides an ASCII suspect, what inspector wrote then (Unicode
  /// keys, the mark set and cleared) and what the shell wrote (marked, keys folded in Latin-1).
  private func fileAtSchema11(_ path: String) throws -> Connection {
    let connection = try Connection(path: path, mode: .readWriteCreate)
    try CaseDatabase.migrator.migrate(connection, upTo: 11)
    try connection.execute(
      """
      INSERT INTO animals (id, name, species, paw_size, species_key, name_key, keys_pending)
        VALUES (1, 'Ωmega', 'ΑΛΕΞ', 'small', 'αλεξ', 'ωmega', 1);
      UPDATE animals SET keys_pending = 0 WHERE id = 1;
      INSERT INTO animals (id, name, species, paw_size) VALUES (2, 'Ábel', 'ΛΥΚΟΣ', 'large');
      INSERT INTO animals (id, name, species, paw_size) VALUES (3, 'Foxy', 'Fox', 'medium');
      INSERT INTO fruits (id, name, color, name_key, key_pending)
        VALUES (1, 'Σύκο', 'purple', 'σύκο', 1);
      UPDATE fruits SET key_pending = 0 WHERE id = 1;
      INSERT INTO fruits (id, name, color) VALUES (2, 'ÇA', 'red');
      """)
    return connection
  }

  private func animals(_ connection: Connection) throws -> [[SQLiteValue]] {
    let rows = try connection.prepare(
      """
      SELECT id, species_key, species_folded_from, name_key, name_folded_from FROM animals
      ORDER BY id
      """)
    var result: [[SQLiteValue]] = []
    while try rows.step() { result.append(rows.row()) }
    return result
  }

  private func fruits(_ connection: Connection) throws -> [[SQLiteValue]] {
    let rows = try connection.prepare(
      "SELECT id, name_key, name_folded_from FROM fruits ORDER BY id")
    var result: [[SQLiteValue]] = []
    while try rows.step() { result.append(rows.row()) }
    return result
  }

  @Test func markedRowsGetSQLsKeysAndUnmarkedUnicodeRowsKeepInspectors() throws {
    try withTemporaryFile { path in
      let connection = try fileAtSchema11(path)
      // The 0005 triggers folded the shell's rows in Latin-1 and marked them.
      #expect(
        try connection.scalar("SELECT name_key || '/' || keys_pending FROM animals WHERE id = 2")?
          .textValue == "abel/1")
      try CaseDatabase.migrator.migrate(connection)
      #expect(
        try animals(connection) == [
          [.integer(1), .text("αλεξ"), .text("ΑΛΕΞ"), .text("ωmega"), .text("Ωmega")],
          [.integer(2), .text("ΛΥΚΟΣ"), .null, .text("Ábel"), .null],
          [.integer(3), .text("fox"), .null, .text("foxy"), .null],
        ])
      #expect(
        try fruits(connection) == [
          [.integer(1), .text("σύκο"), .text("Σύκο")], [.integer(2), .text("Ça"), .null],
        ])
      // The marks are gone, with their indexes and triggers.
      let pending = """
        SELECT count(*) FROM sqlite_schema WHERE sql LIKE '%keys_pending%'
          OR sql LIKE '%key_pending%'
        """
      #expect(try connection.scalar(pending)?.integerValue == 0)

      // Look-ups find every row without writing; the next write folds the shell's rows.
      let database = try CaseDatabase(path: path, access: .readWrite)
      #expect(try database.suspects.find("λυκος").id == 2)
      #expect(try database.suspects.find("abel").id == 2)
      #expect(try database.suspects.find("αλεξ").id == 1)
      #expect(try database.fruits.find("ça").id == 2)
      #expect(try database.fruits.find("ΣΎΚΟ").id == 1)
      #expect(
        try animals(connection)[1] == [.integer(2), .text("ΛΥΚΟΣ"), .null, .text("Ábel"), .null])
      try database.write {}
      #expect(
        try animals(connection)[1] == [
          .integer(2), .text("λυκοσ"), .text("ΛΥΚΟΣ"), .text("abel"), .text("Ábel"),
        ])
      #expect(try fruits(connection)[1] == [.integer(2), .text("ça"), .text("ÇA")])
      #expect(try database.schemaDamage().isEmpty)
    }
  }
}
