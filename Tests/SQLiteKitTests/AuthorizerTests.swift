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
}
