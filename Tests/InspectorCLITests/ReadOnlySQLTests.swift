import Foundation
import Testing

@testable import InspectorCLI

/// `sql` without `--write` allows what `sqlite3 -readonly` allows that touches no file
/// (temporary tables and views), and still refuses every write to the database or to another
/// file.
@Suite("Read-only sql")
struct ReadOnlySQLTests {
  @Test func temporaryTablesAndViewsWork() throws {
    let cli = try CLITestCase(seeded: true)
    let rows = cli.succeed(
      "sql", "--format", "csv",
      """
      CREATE TEMP TABLE picks (species TEXT);
      INSERT INTO picks VALUES ('Crow'), ('Snail');
      UPDATE picks SET species = upper(species);
      CREATE TEMP VIEW picked AS SELECT name FROM animals WHERE upper(species) IN (SELECT species FROM picks);
      SELECT name FROM picked ORDER BY name
      """)
    #expect(rows == "name\r\nCatie\r\nSoloman\r\n")
  }

  @Test(arguments: [
    "CREATE TABLE main.extra (x)",
    "INSERT INTO animals (name, species, paw_size) VALUES ('Nia', 'Newt', 'small')",
    "CREATE TEMP TABLE copy AS SELECT * FROM animals; DELETE FROM animals",
    "PRAGMA user_version = 3",
    "VACUUM INTO 'vacuumed.sqlite'",
  ])
  func writesToTheDatabaseOrAnotherFileAreRefused(sql: String) throws {
    let cli = try CLITestCase(seeded: true)
    cli.expectRefusal(["sql", sql], status: 65, messageContains: "sql is read-only")
    #expect(!cli.fileExists(cli.directory.appendingPathComponent("vacuumed.sqlite").path))
    #expect(!cli.fileExists("vacuumed.sqlite"))
    #expect(!cli.fileExists("attached.sqlite"))
  }
}
