import Foundation
import Testing

@testable import SQLiteKit

/// Preparing, scripts, statement facts and reuse.
@Suite struct StatementTests {
  let db: Connection

  init() throws {
    db = try Connection(path: ":memory:")
  }

  // MARK: - prepare

  @Test(arguments: ["SELECT 1; SELECT 2", "SELECT 1;SELECT 2;", "SELECT 1; -- one\nSELECT 2"])
  func prepareRejectsTwoStatements(sql: String) throws {
    let error = #expect(throws: SQLiteError.self) { try db.prepare(sql) }
    #expect(error?.code == .misuse)
    #expect(error?.sql == sql)
  }

  @Test func prepareRunsNothingWhenItRejectsAScript() throws {
    try db.execute("CREATE TABLE t (x)")
    #expect(throws: SQLiteError.self) {
      try db.prepare("INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)")
    }
    #expect(try db.count("t") == 0)
  }

  @Test(arguments: ["SELECT 1", "SELECT 1;", "SELECT 1;  ", "SELECT 1; -- trailing comment"])
  func prepareAcceptsOneStatementWithTrailingNoise(sql: String) throws {
    let statement = try db.prepare(sql)
    #expect(try statement.step())
    #expect(statement.value(at: 0) == .integer(1))
    #expect(try statement.step() == false)
  }

  @Test(arguments: ["", "   ", "-- only a comment", "/* block */", ";"])
  func prepareRejectsAnEmptyScript(sql: String) throws {
    let error = #expect(throws: SQLiteError.self) { try db.prepare(sql) }
    #expect(error?.code == .misuse)
  }

  // MARK: - Scripts

  @Test func scriptStatementUsesTableCreatedByTheStatementBefore() throws {
    var seen: [String] = []
    try db.forEachStatement(
      in: """
        CREATE TABLE fruit (name TEXT NOT NULL);
        INSERT INTO fruit VALUES ('pear'), ('fig');
        """
    ) { statement in
      seen.append(statement.sql.trimmingCharacters(in: .whitespacesAndNewlines))
      while try statement.step() {}
    }
    #expect(seen.count == 2)
    #expect(seen.first == "CREATE TABLE fruit (name TEXT NOT NULL);")
    #expect(seen.last == "INSERT INTO fruit VALUES ('pear'), ('fig');")
    #expect(try db.allRows("SELECT name FROM fruit ORDER BY name") == [["fig"], ["pear"]])
  }

  @Test func executeRunsEveryStatementOfAScriptWithMultibyteText() throws {
    try db.execute(
      """
      CREATE TABLE witness (name TEXT);
      INSERT INTO witness VALUES ('🐦‍⬛ crow'); -- the crow
      /* the fox */ INSERT INTO witness VALUES ('Rénard');
      INSERT INTO witness VALUES ('dove')
      """)
    #expect(
      try db.allRows("SELECT name FROM witness ORDER BY rowid")
        == [["🐦‍⬛ crow"], ["Rénard"], ["dove"]])
  }

  @Test(arguments: ["", "  \n\t ", "-- nothing here", "/* nor here */", "-- a\n/* b */\n ;;"])
  func whitespaceAndCommentScriptsRunNothing(script: String) throws {
    var calls = 0
    try db.forEachStatement(in: script) { _ in calls += 1 }
    #expect(calls == 0)
    try db.execute(script)
    #expect(try db.tableNames() == [])
  }

  @Test func scriptStopsAtTheFirstFailingStatement() throws {
    let error = #expect(throws: SQLiteError.self) {
      try db.execute(
        """
        CREATE TABLE a (x);
        INSERT INTO nowhere VALUES (1);
        CREATE TABLE b (x);
        """)
    }
    #expect(error?.message.contains("no such table: nowhere") == true)
    #expect(try db.tableNames() == ["a"])
  }

  // MARK: - Facts

  @Test(
    arguments: [
      ("SELECT 1", true), ("SELECT * FROM t WHERE x > ?", true),
      ("INSERT INTO t VALUES (1)", false), ("UPDATE t SET x = 2", false),
      ("DELETE FROM t", false), ("CREATE TABLE u (y)", false), ("DROP TABLE t", false),
      ("PRAGMA user_version = 3", false),
    ])
  func isReadOnly(sql: String, readOnly: Bool) throws {
    try db.execute("CREATE TABLE t (x)")
    #expect(try db.prepare(sql).isReadOnly == readOnly)
  }

  @Test func columnNamesAndCount() throws {
    try db.execute("CREATE TABLE suspect (id INTEGER PRIMARY KEY, name TEXT, species TEXT)")
    let statement = try db.prepare("SELECT name, species AS animal, 1 + 1 AS two FROM suspect")
    #expect(statement.columnCount == 3)
    #expect(statement.columnNames == ["name", "animal", "two"])
    #expect(try db.prepare("INSERT INTO suspect (name) VALUES ('x')").columnNames == [])
  }

  @Test func sqlIsTheStatementText() throws {
    #expect(try db.prepare("SELECT ? + 1").sql == "SELECT ? + 1")
  }

  // MARK: - Stepping and reuse

  @Test func runReusesOneStatementForManyRows() throws {
    try db.execute("CREATE TABLE n (i INTEGER NOT NULL, label TEXT NOT NULL)")
    let insert = try db.prepare("INSERT INTO n (i, label) VALUES (?, ?)")
    for i in 1...1_000 {
      try insert.run([i, "row \(i)"])
    }
    #expect(
      try db.firstRow("SELECT count(*), sum(i), min(label), max(i) FROM n")
        == [.integer(1_000), .integer(500_500), .text("row 1"), .integer(1_000)])
    #expect(try db.scalar("SELECT label FROM n WHERE i = 777") == .text("row 777"))
  }

  @Test func runAfterAFailedRunStillWorks() throws {
    try db.execute("CREATE TABLE u (x UNIQUE)")
    let insert = try db.prepare("INSERT INTO u VALUES (?)")
    try insert.run([1])
    #expect(throws: SQLiteError.self) { try insert.run([1]) }
    try insert.run([2])
    #expect(try db.allRows("SELECT x FROM u ORDER BY x") == [[1], [2]])
  }

  @Test func stepReturnsRowsThenFalse() throws {
    let statement = try db.prepare(
      "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 3) SELECT i FROM c")
    var values: [Int64] = []
    while try statement.step() { values.append(statement.int64(at: 0)) }
    #expect(values == [1, 2, 3])
    statement.reset()
    #expect(try statement.step())
    #expect(statement.int64(at: 0) == 1)
  }

  @Test func resetKeepsBindings() throws {
    let statement = try db.prepare("SELECT ? * 2")
    try statement.bind([21])
    #expect(try statement.step())
    #expect(statement.int64(at: 0) == 42)
    statement.reset()
    #expect(try statement.step())
    #expect(statement.int64(at: 0) == 42)
  }

  @Test func columnReadersFollowSQLiteConversions() throws {
    let statement = try db.prepare("SELECT NULL, 'x', 12, 2.5, x'00ff'")
    #expect(try statement.step())
    #expect(statement.isNull(at: 0))
    #expect(!statement.isNull(at: 1))
    #expect(statement.optionalText(at: 0) == nil)
    #expect(statement.optionalText(at: 1) == "x")
    #expect(statement.text(at: 0) == "")
    #expect(statement.int64(at: 0) == 0)
    #expect(statement.double(at: 2) == 12.0)
    #expect(statement.row() == [.null, .text("x"), .integer(12), .real(2.5), .blob([0, 255])])
  }

  @Test func connectionCountersFollowTheLastStatement() throws {
    try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, x)")
    #expect(db.lastInsertRowID == 0)
    try db.execute("INSERT INTO t (id, x) VALUES (41, 'a'), (42, 'b'), (43, 'c')")
    #expect(db.lastInsertRowID == 43)
    #expect(db.changes == 3)
    try db.execute("UPDATE t SET x = 'z' WHERE id > 41")
    #expect(db.changes == 2)
  }
}

/// The connection's statement cache: prepared once, checked out while in use, reset and
/// returned when released, dropped after a failure.
@Suite("Statement cache")
struct StatementCacheTests {
  @Test func aReleasedStatementIsResetAndReused() throws {
    let db = try Connection(path: ":memory:", mode: .readWriteCreate)
    try db.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3)")
    let sql = "SELECT x FROM t WHERE x >= ? ORDER BY x"
    var handle: OpaquePointer?
    do {
      let first = try db.cachedStatement(sql)
      try first.bind([2])
      #expect(try first.step())
      #expect(first.int64(at: 0) == 2)
      handle = first.handle
    }
    // Released half-way: the next holder starts from the first row, with no bindings left.
    let again = try db.cachedStatement(sql)
    #expect(again.handle == handle)
    #expect(again.parameterCount == 1)
    try again.bind([1])
    var seen: [Int64] = []
    while try again.step() { seen.append(again.int64(at: 0)) }
    #expect(seen == [1, 2, 3])
  }

  @Test func nestedUsesOfOneSQLGetTheirOwnStatements() throws {
    let db = try Connection(path: ":memory:", mode: .readWriteCreate)
    try db.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2)")
    let sql = "SELECT x FROM t ORDER BY x"
    let outer = try db.cachedStatement(sql)
    var pairs: [[Int64]] = []
    while try outer.step() {
      let inner = try db.cachedStatement(sql)
      #expect(inner.handle != outer.handle)
      while try inner.step() { pairs.append([outer.int64(at: 0), inner.int64(at: 0)]) }
    }
    #expect(pairs == [[1, 1], [1, 2], [2, 1], [2, 2]])
  }

  @Test func aStatementWhoseStepFailedIsNotReused() throws {
    let db = try Connection(path: ":memory:", mode: .readWriteCreate)
    try db.execute("CREATE TABLE t (x INTEGER UNIQUE)")
    let sql = "INSERT INTO t (x) VALUES (?)"
    do {
      let insert = try db.cachedStatement(sql)
      try insert.run([1])
      try insert.bind([1])
      #expect(throws: SQLiteError.self) { try insert.step() }
    }
    // Finalized on release, not cached (SQLite may reuse its memory, so compare no addresses).
    #expect(db.cachedHandles[sql] == nil)
    let fresh = try db.cachedStatement(sql)
    try fresh.run([2])
    #expect(try db.scalar("SELECT count(*) FROM t")?.integerValue == 2)
  }

  @Test func aCachedStatementWhoseStepFailsLeavesTheCache() throws {
    let db = try Connection(path: ":memory:", mode: .readWriteCreate)
    try db.execute("CREATE TABLE t (x INTEGER UNIQUE)")
    let sql = "INSERT INTO t (x) VALUES (?)"
    try db.cachedStatement(sql).run([1])
    #expect(db.cachedHandles[sql] != nil)
    do {
      // The cached statement, taken again: its step fails, so it is not handed out again.
      let insert = try db.cachedStatement(sql)
      #expect(insert.handle == db.cachedHandles[sql])
      #expect(throws: SQLiteError.self) { try insert.run([1]) }
    }
    #expect(db.cachedHandles[sql] == nil)
    #expect(db.checkedOutHandles.isEmpty)
    try db.cachedStatement(sql).run([2])
    #expect(try db.scalar("SELECT group_concat(x) FROM t")?.textValue == "1,2")
  }

  @Test func aScriptIsNeverCachedUnderItsText() throws {
    let db = try Connection(path: ":memory:", mode: .readWriteCreate)
    #expect(throws: SQLiteError.self) { try db.cachedStatement("SELECT 1; SELECT 2") }
    #expect(db.cachedHandles.isEmpty)
    #expect(throws: SQLiteError.self) { try db.cachedStatement("SELECT 1; SELECT 2") }
  }
}
