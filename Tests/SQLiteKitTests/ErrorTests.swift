import Foundation
import Testing

@testable import SQLiteKit

/// SQLite's failures arrive as `SQLiteError` with the primary and extended code, SQLite's own
/// message and the SQL, but never the bound values.
@Suite struct ErrorTests {
  let db: Connection

  init() throws {
    db = try Connection(path: ":memory:")
    try db.execute(
      """
      CREATE TABLE suspect (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        suspicion INTEGER CHECK (suspicion BETWEEN 0 AND 10)
      );
      CREATE TABLE favourite (
        suspect_id INTEGER NOT NULL REFERENCES suspect (id),
        fruit TEXT NOT NULL
      );
      INSERT INTO suspect (id, name, suspicion) VALUES (1, 'crow', 7);
      """)
  }

  // MARK: - Syntax

  @Test(
    arguments: [
      "SELEC 1", "SELECT * FROM suspect WHERE AND name = 'crow'",
      "INSERT INTO suspect (name) VALUES ('crow',, 'dove')",
    ])
  func syntaxErrorCarriesMessageAndSQL(sql: String) throws {
    let error = #expect(throws: SQLiteError.self) { try db.prepare(sql) }
    #expect(error?.code == .error)
    #expect(error?.extendedCode == .error)
    #expect(error?.message.contains("syntax error") == true)
    #expect(error?.sql == sql)
    #expect(error?.description.contains(sql) == true)
  }

  @Test func syntaxErrorInTheSecondStatementNamesThatStatement() throws {
    let error = #expect(throws: SQLiteError.self) {
      try db.execute("CREATE TABLE a (x); SELEC 2; CREATE TABLE b (x)")
    }
    #expect(error?.message.contains("syntax error") == true)
    #expect(error?.sql?.contains("SELEC 2") == true)
    #expect(error?.sql?.contains("CREATE TABLE a") == false)
    #expect(try db.tableNames() == ["a", "favourite", "suspect"])
  }

  @Test(arguments: ["SELECT * FROM suspect WHERE", "INSERT INTO suspect VALUES ("])
  func incompleteStatementIsAnError(sql: String) throws {
    let error = #expect(throws: SQLiteError.self) { try db.prepare(sql) }
    #expect(error?.code == .error)
    #expect(error?.message == "incomplete input")
    #expect(error?.sql == sql)
  }

  @Test func unknownTableIsAnError() throws {
    let error = #expect(throws: SQLiteError.self) { try db.prepare("SELECT * FROM alibi") }
    #expect(error?.code == .error)
    #expect(error?.message == "no such table: alibi")
  }

  // MARK: - Constraints

  @Test(
    arguments: [
      ("INSERT INTO suspect (name, suspicion) VALUES ('crow', 1)", 2067, "UNIQUE"),
      ("INSERT INTO suspect (name, suspicion) VALUES ('dove', 11)", 275, "CHECK"),
      ("INSERT INTO suspect (name) VALUES (NULL)", 1299, "NOT NULL"),
      ("INSERT INTO favourite VALUES (99, 'fig')", 787, "FOREIGN KEY"),
      ("DELETE FROM suspect WHERE id = 1", 787, "FOREIGN KEY"),
    ])
  func constraintViolation(sql: String, extended: Int32, kind: String) throws {
    try db.execute("INSERT INTO favourite VALUES (1, 'pear')")
    let error = #expect(throws: SQLiteError.self) { try db.execute(sql) }
    #expect(error?.code == .constraint)
    #expect(error?.extendedCode.rawValue == extended)
    #expect(error?.message.hasPrefix("\(kind) constraint failed") == true)
    #expect(error?.sql == sql)
    #expect(try db.count("suspect") == 1)
    #expect(try db.count("favourite") == 1)
  }

  @Test func constraintErrorFromABoundStatementLeavesValuesOutOfTheText() throws {
    let secret = "alibi: at the orchard at 23:10"
    try db.execute("INSERT INTO suspect (name) VALUES (?)", [secret])
    let error = #expect(throws: SQLiteError.self) {
      try db.execute("INSERT INTO suspect (name) VALUES (?)", [secret])
    }
    #expect(error?.extendedCode.rawValue == 2067)
    #expect(error?.extendedCode == .constraintUnique)
    #expect(error?.message == "UNIQUE constraint failed: suspect.name")
    #expect(error?.sql == "INSERT INTO suspect (name) VALUES (?)")
    #expect(error?.description.contains(secret) == false)
    #expect(error?.description.contains("orchard") == false)
  }

  @Test func descriptionNamesPrimaryAndExtendedCodeAndMessage() throws {
    let error = #expect(throws: SQLiteError.self) {
      try db.execute("INSERT INTO suspect (name) VALUES ('crow')")
    }
    #expect(
      error?.description
        == "SQLite error 19 (extended 2067): UNIQUE constraint failed: suspect.name"
        + " [SQL: INSERT INTO suspect (name) VALUES ('crow')]")
  }

  @Test func descriptionOfAPrimaryCodeHasNoExtendedPart() {
    let error = SQLiteError(extendedCode: .busy, message: "database is locked")
    #expect(error.code == .busy)
    #expect(error.description == "SQLite error 5: database is locked")
  }

  @Test func primaryCodeIsTheLowByteOfTheExtendedCode() {
    #expect(SQLiteError(extendedCode: ResultCode(rawValue: 2067), message: "").code == .constraint)
    #expect(SQLiteError(extendedCode: ResultCode(rawValue: 1032), message: "").code == .readOnly)
  }

  // MARK: - Files

  @Test func writeOnAReadOnlyConnectionIsReadOnly() throws {
    try withTemporaryDirectory { directory in
      let path = try directory.oneSuspectDatabase()
      let reader = try Connection(path: path, mode: .readOnly)
      #expect(try reader.scalar("SELECT name FROM suspect") == .text("dove"))
      for sql in [
        "INSERT INTO suspect VALUES ('crow')", "CREATE TABLE other (x)", "PRAGMA user_version = 9",
      ] {
        let error = #expect(throws: SQLiteError.self) { try reader.execute(sql) }
        #expect(error?.code == .readOnly)
      }
      #expect(try reader.count("suspect") == 1)
      #expect(try reader.userVersion() == 0)
    }
  }

  @Test(arguments: [Connection.OpenMode.readWrite, .readOnly])
  func openingAMissingFileFailsAndCreatesNothing(mode: Connection.OpenMode) throws {
    try withTemporaryDirectory { directory in
      let path = directory.file("missing.sqlite")
      let error = #expect(throws: SQLiteError.self) { try Connection(path: path, mode: mode) }
      #expect(error?.code == .cannotOpen)
      #expect(!FileManager.default.fileExists(atPath: path))
      let contents = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      #expect(contents == [])
    }
  }

  @Test(arguments: [Connection.OpenMode.readWrite, .readOnly, .readWriteCreate])
  func openingATextFileIsNotADatabase(mode: Connection.OpenMode) throws {
    try withTemporaryDirectory { directory in
      let path = directory.file("notes.txt")
      let text = String(repeating: "The crow was at the pear tree at dawn.\n", count: 40)
      try text.write(toFile: path, atomically: false, encoding: .utf8)
      let error = #expect(throws: SQLiteError.self) { try Connection(path: path, mode: mode) }
      #expect(error?.code == .notADatabase)
      #expect(error?.message == "file is not a database")
      #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }
  }
}
