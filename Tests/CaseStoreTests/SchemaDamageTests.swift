import SQLiteKit
import Testing

@testable import CaseStore

/// `CaseDatabase.schemaDamage()` (docs/schema.md "A damaged schema"): what a reading command
/// checks before it trusts derived columns and indexes.
@Suite("Schema damage")
struct SchemaDamageTests {
  @Test func theMigrationsSchemaIsIntactAndOtherToolsObjectsAreNoDamage() throws {
    let database = try seededDatabase()
    #expect(try database.schemaDamage().isEmpty)
    // Litestream's table, ANALYZE's statistics, a foreign index: not inspector's business here.
    try database.connection.execute(
      """
      CREATE TABLE _litestream_seq (id INTEGER PRIMARY KEY, seq INTEGER);
      CREATE INDEX animals_by_emoji ON animals (emoji);
      ANALYZE;
      """)
    #expect(try database.schemaDamage().isEmpty)
  }

  @Test(
    "a missing or changed object of the migrations is damage",
    arguments: [
      (
        "DROP TRIGGER suspicion_levels_after_update",
        "trigger suspicion_levels_after_update is missing"
      ),
      ("DROP INDEX alibis_stated", "index alibis_stated is missing"),
      (
        """
        CREATE TABLE alibis_new (animal_id INTEGER PRIMARY KEY, statement TEXT);
        INSERT INTO alibis_new SELECT animal_id, statement FROM alibis;
        DROP TABLE alibis;
        ALTER TABLE alibis_new RENAME TO alibis;
        """,
        "table alibis differs from what the migrations create"
      ),
    ])
  func missingOrChangedObjectsAreDamage(sql: String, message: String) throws {
    let database = try seededDatabase()
    try database.connection.execute("PRAGMA foreign_keys = OFF")
    try database.connection.execute(sql)
    let damage = try database.schemaDamage()
    #expect(damage.contains { $0.message.hasPrefix(message) }, "\(damage.map(\.message))")
  }
}
