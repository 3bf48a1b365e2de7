import Foundation
import SQLiteKit
import Testing

@testable import CaseStore

/// `AdHocQuery`, the engine of `inspector sql` (README "A short tour"): a read-only run
/// cannot change the database or create files, a write run is one transaction, parameters are
/// bound and never spliced, and values come back exactly.
@Suite struct AdHocQueryTests {
  /// A seeded case file on disk (read-only connections need a file), handed to `body` with its
  /// path; the directory is removed afterwards.
  private func withSeededFile<T>(_ body: (String) throws -> T) throws -> T {
    try withTemporaryFile { path in
      let database = try CaseDatabase(path: path, access: .create)
      try database.write(nil) { try SeedCase.load(into: $0) }
      return try body(path)
    }
  }

  private func count(_ table: String, in connection: Connection) throws -> Int64 {
    try #require(try connection.scalar("SELECT count(*) FROM \(table)")?.integerValue)
  }

  // MARK: - Read-only runs

  @Test(arguments: [
    "DELETE FROM animals",
    "UPDATE suspicion_levels SET level = 1",
    "INSERT INTO fruits (name, color) VALUES ('Kiwi', 'green')",
    "DROP TABLE favorite_fruits",
    "CREATE TABLE notes (x)",
    "PRAGMA user_version = 7",
  ])
  func readOnlyRunRefusesWrites(sql: String) throws {
    try withSeededFile { path in
      let connection = try AdHocQuery.openReadOnly(path: path, busyTimeout: 1000)
      #expect(throws: AdHocQuery.ReadOnlyViolation(sql: sql)) {
        try AdHocQuery(sql: sql).run(on: connection, write: false)
      }
      // The connection itself refuses, not only the statement check in front of it.
      let error = try #require(throws: SQLiteError.self) { try connection.execute(sql) }
      #expect(error.code == .readOnly)
      #expect(try count("animals", in: connection) == 10)
      #expect(try count("fruits", in: connection) == 19)
      #expect(try count("favorite_fruits", in: connection) == 27)
      // Nothing in inspector writes the header's user_version, so it is still 0.
      #expect(try connection.userVersion() == 0)
    }
  }

  @Test func readOnlyRunCannotCreateOtherFiles() throws {
    try withSeededFile { path in
      let directory = (path as NSString).deletingLastPathComponent
      let before = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
      let connection = try AdHocQuery.openReadOnly(path: path, busyTimeout: 1000)
      for sql in [
        "VACUUM INTO '\(directory)/copy.sqlite'",
        "ATTACH DATABASE '\(directory)/other.sqlite' AS other",
      ] {
        #expect(throws: (any Error).self, "\(sql)") {
          try AdHocQuery(sql: sql).run(on: connection, write: false)
        }
        // Straight to SQLite as well: the attach limit of 0 stops both.
        #expect(throws: SQLiteError.self, "\(sql)") { try connection.execute(sql) }
      }
      #expect(!FileManager.default.fileExists(atPath: directory + "/copy.sqlite"))
      #expect(!FileManager.default.fileExists(atPath: directory + "/other.sqlite"))
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == before)
    }
  }

  // MARK: - Write runs

  @Test func failingWriteScriptLeavesNothing() throws {
    let database = try seededDatabase()
    let connection = database.connection
    let levelsBefore = try database.rows("SELECT animal_id, level FROM suspicion_levels")
    let script = """
      INSERT INTO fruits (name, color) VALUES ('Kiwi', 'green');
      UPDATE suspicion_levels SET level = 0.9;
      INSERT INTO fruits (name, color) VALUES ('KIWI', 'brown');
      """
    let error = try #require(throws: SQLiteError.self) {
      try AdHocQuery(sql: script).run(on: connection, write: true)
    }
    #expect(error.code == .constraint)
    #expect(error.message == "UNIQUE constraint failed: fruits.name_key")
    #expect(try count("fruits", in: connection) == 19)
    #expect(try database.rows("SELECT id FROM fruits WHERE name = 'Kiwi'").isEmpty)
    #expect(try database.rows("SELECT animal_id, level FROM suspicion_levels") == levelsBefore)
    #expect(connection.isAutocommit)
  }

  @Test func writeScriptMayNotEndItsOwnTransaction() throws {
    // "The whole script is one transaction": a COMMIT inside the script must not make the
    // first half permanent when the second half fails.
    let database = try seededDatabase()
    let script = """
      INSERT INTO fruits (name, color) VALUES ('Kiwi', 'green');
      COMMIT;
      INSERT INTO fruits (name, color) VALUES ('KIWI', 'brown');
      """
    #expect(throws: CaseError.self) {
      try AdHocQuery(sql: script).run(on: database.connection, write: true)
    }
    #expect(try database.rowCount("fruits") == 19)
    #expect(database.connection.isAutocommit)
  }

  /// The rows a write run reports are the rows it kept: what a `ROLLBACK TO` undid no longer
  /// counts (SQLite's counters never go back), whatever case the savepoint's name is in.
  @Test(arguments: [
    // Everything rolled back.
    (
      "SAVEPOINT a; INSERT INTO fruits (name, color) VALUES ('Kiwi', 'green'); ROLLBACK TO a;"
        + " RELEASE a", 0, 19
    ),
    // Kept before the savepoint, undone after it.
    (
      "UPDATE fruits SET color = 'green' WHERE id <= 3; SAVEPOINT a;"
        + " UPDATE fruits SET color = 'red' WHERE id > 10; ROLLBACK TRANSACTION TO SAVEPOINT A;"
        + " RELEASE a", 3, 19
    ),
    // Nested: the inner savepoint's rows are undone with the outer one's.
    (
      "SAVEPOINT outer; INSERT INTO fruits (name, color) VALUES ('Kiwi', 'green');"
        + " SAVEPOINT inner; INSERT INTO fruits (name, color) VALUES ('Lime', 'green');"
        + " RELEASE inner; ROLLBACK TO outer; INSERT INTO fruits (name, color)"
        + " VALUES ('Yuzu', 'yellow'); RELEASE outer", 1, 20
    ),
    // A statement that changes no row (DDL, ANALYZE) adds none, though sqlite3_changes() still
    // holds the last INSERT, UPDATE or DELETE's count.
    ("CREATE TEMP TABLE scratch (a)", 0, 19),
    (
      "UPDATE fruits SET color = 'green' WHERE id <= 2; CREATE TEMP VIEW v AS SELECT 1;"
        + " DROP VIEW v; CREATE INDEX temp_color ON fruits (color); DROP INDEX temp_color;"
        + " ANALYZE", 2, 19
    ),
    // SQLite folds only ASCII letters in savepoint names: É and é are two savepoints.
    (
      "SAVEPOINT É; INSERT INTO fruits (name, color) VALUES ('Kiwi', 'green'); SAVEPOINT é;"
        + " INSERT INTO fruits (name, color) VALUES ('Lime', 'green'); ROLLBACK TO É; RELEASE É",
      0, 19
    ),
    // Released: kept.
    ("SAVEPOINT a; INSERT INTO fruits (name, color) VALUES ('Kiwi', 'green'); RELEASE a", 1, 20),
  ])
  func theRowsChangedAreTheRowsKept(script: String, changes: Int, fruits: Int) throws {
    let database = try seededDatabase()
    let result = try AdHocQuery(sql: script).run(on: database.connection, write: true)
    #expect(result.changes == changes)
    #expect(try database.rowCount("fruits") == fruits)
  }

  @Test func resultIsTheLastRowReturningStatement() throws {
    let database = try seededDatabase()
    let result = try AdHocQuery(
      sql: """
        SELECT 1 AS first;
        SELECT species FROM animals WHERE paw_size = 'medium' ORDER BY species;
        UPDATE fruits SET color = :color WHERE name = 'Elstar Apple';
        """, parameters: ["color": .text("green")]
    ).run(on: database.connection, write: true)
    #expect(result.columns == ["species"])
    #expect(result.rows == [[.text("Duck")], [.text("Raccoon")]])
    #expect(result.changes == 1)
    #expect(
      try database.connection.scalar("SELECT color FROM fruits WHERE name = 'Elstar Apple'")
        == .text("green"))
  }

  // MARK: - Parameters

  @Test func namedParametersAreBoundNeverSpliced() throws {
    let database = try seededDatabase()
    let hostile = "'); DROP TABLE animals;--"
    let result = try AdHocQuery(
      sql: """
        INSERT INTO fruits (name, color) VALUES (:name, @color);
        SELECT name, color FROM fruits WHERE name = $name;
        """,
      parameters: ["name": .text(hostile), "color": .text("red")]
    ).run(on: database.connection, write: true)
    #expect(result.columns == ["name", "color"])
    #expect(result.rows == [[.text(hostile), .text("red")]])
    try expectRowCounts(["animals": 10, "fruits": 20], in: database)
  }

  @Test(arguments: [
    ("species=Crow", "species", SQLiteValue.text("Crow")),
    (":species=Crow", "species", .text("Crow")),
    ("@n=42", "n", .integer(42)),
    ("$n=-7", "n", .integer(-7)),
    ("n=007", "n", .text("007")),
    ("n=0.5", "n", .text("0.5")),
    ("n=9223372036854775807", "n", .integer(9_223_372_036_854_775_807)),
    ("n=9223372036854775808", "n", .text("9223372036854775808")),
    ("n=", "n", .text("")),
    ("n=a=b", "n", .text("a=b")),
  ])
  func parameterParsing(text: String, name: String, value: SQLiteValue) throws {
    let parsed = try #require(AdHocQuery.parameter(text))
    #expect(parsed.name == name)
    #expect(parsed.value == value)
  }

  @Test(arguments: ["species", "=Crow", ":=Crow", ""])
  func parameterWithoutNameOrEqualsIsRejected(text: String) {
    #expect(AdHocQuery.parameter(text) == nil)
  }

  @Test func unknownOrUnusedParameterChangesNothing() throws {
    let database = try seededDatabase()
    let insert = "INSERT INTO fruits (name, color) VALUES ('Kiwi', 'green'); "
    expectInvalidValue(
      field: "parameter", value: ":species", expected: "a value given with --param species=VALUE"
    ) {
      try AdHocQuery(sql: insert + "SELECT :species").run(on: database.connection, write: true)
    }
    expectInvalidValue(field: "parameter", value: "unused", expected: "a parameter the SQL uses") {
      try AdHocQuery(sql: insert, parameters: ["unused": .integer(1)])
        .run(on: database.connection, write: true)
    }
    #expect(try database.rowCount("fruits") == 19)
  }

  @Test func syntaxErrorCarriesSQLiteMessage() throws {
    let database = try seededDatabase()
    let error = try #require(throws: SQLiteError.self) {
      try AdHocQuery(sql: "SELEC name FROM fruits").run(on: database.connection, write: false)
    }
    #expect(error.message == "near \"SELEC\": syntax error")
  }

  // MARK: - Values

  @Test func valuesComeBackExactly() throws {
    let database = try seededDatabase()
    let result = try AdHocQuery(
      sql: """
        SELECT 'a,"b"' || char(10) || 'c' AS quoted, 'a' || char(0) || 'b' AS nul,
          9223372036854775807 AS big, 0.1 AS tenth, NULL AS absent, '' AS empty
        """
    ).run(on: database.connection, write: false)
    #expect(result.columns == ["quoted", "nul", "big", "tenth", "absent", "empty"])
    #expect(
      result.rows == [
        [
          .text("a,\"b\"\nc"), .text("a\u{0}b"), .integer(Int64.max), .real(0.1), .null,
          .text(""),
        ]
      ])
    #expect(result.rows.first?[1].textValue?.unicodeScalars.count == 3)
  }
}
