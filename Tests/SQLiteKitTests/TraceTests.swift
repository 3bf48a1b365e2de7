import SQLiteKit
import Testing

/// `Connection.traceStatements(_:)`: the SQL of each statement as it runs, values unexpanded.
@Suite struct TraceTests {
  /// Collects what the observer is given.
  final class Log {
    var lines: [String] = []
  }

  @Test func reportsEachStatementWithParametersUnexpanded() throws {
    let db = try Connection(path: ":memory:", mode: .readWriteCreate)
    try db.execute("CREATE TABLE suspect (name TEXT)")
    let log = Log()
    try db.traceStatements { log.lines.append($0) }
    try db.execute("INSERT INTO suspect (name) VALUES (?)", ["Catie"])
    _ = try db.scalar("SELECT name FROM suspect WHERE name = ?", ["Catie"])
    #expect(
      log.lines == [
        "INSERT INTO suspect (name) VALUES (?)", "SELECT name FROM suspect WHERE name = ?",
      ])
  }

  @Test func reportsStatementsRunByTriggersAsComments() throws {
    let db = try Connection(path: ":memory:", mode: .readWriteCreate)
    try db.execute(
      """
      CREATE TABLE suspect (name TEXT);
      CREATE TABLE audit (n INTEGER);
      CREATE TRIGGER suspect_audit AFTER INSERT ON suspect BEGIN INSERT INTO audit VALUES (1); END;
      """)
    let log = Log()
    try db.traceStatements { log.lines.append($0) }
    try db.execute("INSERT INTO suspect (name) VALUES ('Ding')")
    #expect(log.lines.first == "INSERT INTO suspect (name) VALUES ('Ding')")
    #expect(log.lines.contains { $0.hasPrefix("-- TRIGGER suspect_audit") })
  }

  @Test func nilStopsTracing() throws {
    let db = try Connection(path: ":memory:", mode: .readWriteCreate)
    let log = Log()
    try db.traceStatements { log.lines.append($0) }
    try db.execute("SELECT 1")
    try db.traceStatements(nil)
    try db.execute("SELECT 2")
    #expect(log.lines == ["SELECT 1"])
  }
}
