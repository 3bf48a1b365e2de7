import Foundation
import Testing

@testable import SQLiteKit

/// Every connection is opened defensively (<https://sqlite.org/security.html>): SQL cannot
/// rewrite the schema, switch the journal off or forge the schema version, and the schema is
/// not trusted to call risky functions.
@Suite struct DefensiveConnectionTests {
  /// Runs `body` with the path of a case file in a new temporary directory: a WAL file with one
  /// suspect table and a trigger that uses built-in functions only.
  private func withCaseFile(_ body: (String) throws -> Void) throws {
    try withTemporaryDirectory { directory in
      try body(try directory.database("case.sqlite", running: Self.caseFileSQL))
    }
  }

  private static let caseFileSQL = """
    CREATE TABLE suspect (id INTEGER PRIMARY KEY, name TEXT NOT NULL, name_key TEXT);
    CREATE TRIGGER suspect_key AFTER INSERT ON suspect WHEN NEW.name_key IS NULL
    BEGIN
      UPDATE suspect SET name_key = replace(lower(trim(NEW.name)), 'é', 'e') WHERE id = NEW.id;
    END;
    INSERT INTO suspect (name) VALUES ('  Catie '), ('Rénard');
    """

  @Test(arguments: [Connection.OpenMode.readWriteCreate, .readWrite, .readOnly])
  func schemaIsNotTrusted(mode: Connection.OpenMode) throws {
    try withCaseFile { path in
      let db = try Connection(path: path, mode: mode)
      #expect(try db.scalar("PRAGMA trusted_schema") == .integer(0))
    }
  }

  @Test func triggersWithBuiltInFunctionsStillRun() throws {
    try withCaseFile { path in
      let db = try Connection(path: path)
      try db.execute("INSERT INTO suspect (name) VALUES ('Élise')")
      #expect(
        try db.allRows("SELECT name_key FROM suspect ORDER BY id")
          == [["catie"], ["renard"], ["Élise"]])
    }
  }

  @Test func writableSchemaCannotRewriteTheSchema() throws {
    try withCaseFile { path in
      let db = try Connection(path: path)
      let schema = try db.allRows("SELECT name, sql FROM sqlite_schema ORDER BY name")
      try db.execute("PRAGMA writable_schema = ON")
      let error = #expect(throws: SQLiteError.self) {
        try db.execute(
          "UPDATE sqlite_schema SET sql = 'CREATE TABLE suspect (broken' WHERE name = 'suspect'")
      }
      #expect(error?.code == .error)
      #expect(error?.message == "table sqlite_master may not be modified")
      #expect(try db.allRows("SELECT name, sql FROM sqlite_schema ORDER BY name") == schema)
      let reopened = try Connection(path: path, mode: .readOnly)
      #expect(try reopened.integrityCheck() == ["ok"])
      #expect(
        try reopened.allRows("SELECT name FROM suspect ORDER BY id") == [["  Catie "], ["Rénard"]])
    }
  }

  @Test func journalModeOffIsIgnored() throws {
    try withCaseFile { path in
      let db = try Connection(path: path)
      #expect(try db.scalar("PRAGMA journal_mode = OFF") == .text("wal"))
      #expect(try db.scalar("PRAGMA journal_mode") == .text("wal"))
    }
  }

  @Test func schemaVersionCannotBeForged() throws {
    try withCaseFile { path in
      let db = try Connection(path: path)
      let before = try db.scalar("PRAGMA schema_version")
      #expect(before == .integer(2))
      try db.execute("PRAGMA schema_version = 1")
      #expect(try db.scalar("PRAGMA schema_version") == before)
      let reopened = try Connection(path: path, mode: .readOnly)
      #expect(try reopened.scalar("PRAGMA schema_version") == before)
      #expect(try reopened.integrityCheck() == ["ok"])
    }
  }
}
