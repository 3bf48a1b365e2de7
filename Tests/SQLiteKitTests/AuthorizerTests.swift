import Testing

@testable import SQLiteKit

/// The two authorizer users, `withScriptGuard` and `attachesDatabase`: each installs its
/// callback for its own work only and removes it however that work ends.
@Suite struct AuthorizerTests {
  struct Stop: Error {}

  let db: Connection

  init() throws {
    db = try Connection(path: ":memory:")
    try db.execute("CREATE TABLE clue (text TEXT)")
  }

  /// `BEGIN` and a file-guarding pragma run: no authorizer is left on the connection.
  private func expectNoAuthorizer() throws {
    try db.execute("BEGIN; INSERT INTO clue VALUES ('x'); ROLLBACK")
    try db.execute("PRAGMA schema_version = 1")
    #expect(db.isAutocommit)
  }

  @Test func theScriptGuardRefusesWhileItRunsAndOnlyThen() throws {
    let refusal = #expect(throws: RefusedStatement.self) {
      try db.withScriptGuard { try db.execute("BEGIN") }
    }
    #expect(refusal?.reason == .transactionControl)
    let pragma = #expect(throws: RefusedStatement.self) {
      try db.withScriptGuard { try db.execute("PRAGMA main.Writable_Schema = ON") }
    }
    #expect(pragma?.reason == .fileGuardingPragma(name: "writable_schema"))
    #expect(try db.withScriptGuard { try db.scalar("PRAGMA writable_schema") } == .integer(0))
    try expectNoAuthorizer()
  }

  @Test func theScriptGuardIsRemovedWhenItsBodyThrows() throws {
    #expect(throws: Stop.self) {
      try db.withScriptGuard {
        try db.execute("INSERT INTO clue VALUES ('y')")
        throw Stop()
      }
    }
    try expectNoAuthorizer()
  }

  @Test func attachesDatabaseRemovesItsAuthorizerWhetherOrNotTheSQLPrepares() throws {
    #expect(try db.attachesDatabase("ATTACH ':memory:' AS other"))
    try expectNoAuthorizer()
    #expect(throws: SQLiteError.self) { try db.attachesDatabase("SELECT * FROM nowhere") }
    try expectNoAuthorizer()
  }

  /// Append-only tables: triggers may insert into them, nothing may update, delete, drop or
  /// alter them; other tables and temporary ones of the same prefix are not protected.
  @Test func appendOnlyTablesTakeTriggerInsertsOnly() throws {
    try db.execute(
      """
      CREATE TABLE log_rows (text TEXT);
      CREATE INDEX log_rows_text ON log_rows (text);
      CREATE TRIGGER log_clue AFTER INSERT ON clue BEGIN
        INSERT INTO log_rows VALUES (NEW.text);
      END;
      """)
    try db.withScriptGuard(appendOnly: "LOG_") {
      try db.execute("INSERT INTO clue VALUES ('seen')")
      try db.execute("CREATE TEMP TABLE log_scratch (x); DELETE FROM temp.log_scratch")
      try db.execute("UPDATE clue SET text = 'seen twice'")
    }
    #expect(try db.scalar("SELECT group_concat(text) FROM log_rows") == .text("seen"))
    for (sql, name) in [
      ("UPDATE log_rows SET text = 'forged'", "log_rows"),
      ("DELETE FROM main.log_rows", "log_rows"),
      ("INSERT INTO log_rows VALUES ('forged')", "log_rows"),
      ("DROP TABLE log_rows", "log_rows"),
      ("ALTER TABLE log_rows RENAME TO kept", "log_rows"),
      ("DROP INDEX log_rows_text", "log_rows"),
      ("DROP TRIGGER log_clue", "log_clue"),
      ("CREATE TRIGGER t BEFORE INSERT ON log_rows BEGIN SELECT 1; END", "log_rows"),
      (
        "CREATE TRIGGER t AFTER INSERT ON clue BEGIN DELETE FROM log_rows; END;"
          + " INSERT INTO clue VALUES ('z')", "log_rows"
      ),
    ] {
      let refusal = #expect(throws: RefusedStatement.self, "\(sql)") {
        try db.inTransaction(.immediate) {
          try db.withScriptGuard(appendOnly: "log_") { try db.execute(sql) }
        }
      }
      #expect(refusal?.reason == .appendOnly(table: name), "\(sql)")
    }
    #expect(try db.scalar("SELECT group_concat(text) FROM log_rows") == .text("seen"))
    // Without a prefix nothing is protected, and no authorizer is left behind.
    try db.withScriptGuard { try db.execute("DELETE FROM log_rows") }
    try expectNoAuthorizer()
  }
}
