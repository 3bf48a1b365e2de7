import Foundation
import SQLiteKit
import Testing

@testable import InspectorCLI

/// `inspector optimize [--vacuum]` end to end.
struct OptimizeCommandTests {
  @Test func optimizeAnalyzesAndVacuumGivesFreePagesBack() throws {
    let session = try CLITestCase(seeded: true)
    // 300 rows of 2,000 bytes in a table of another tool's, then dropped: their pages are free.
    // (Removed suspects would not do: the case history keeps what they held.)
    session.succeed(
      "sql", "--write",
      """
      CREATE TABLE scratch (x TEXT);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
      INSERT INTO scratch SELECT printf('%.2000c', 'x') FROM n;
      DROP TABLE scratch;
      """)
    let analyzed = try jsonObject(session.succeed("optimize", "--json"))
    #expect(analyzed["vacuumed"] as? Bool == false)
    #expect(analyzed["bytes_freed"] as? Int == 0)
    let free = try #require(analyzed["free_pages_after"] as? Int)
    #expect(free > 100)
    let stats = session.succeed("sql", "SELECT count(*) AS n FROM sqlite_stat1", "--format", "csv")
    #expect(stats != "n\r\n0\r\n")
    let sizeBefore = try fileSize(session.databasePath)
    let table = session.succeed("optimize", "--vacuum")
    #expect(table.hasPrefix("Statistics refreshed (ANALYZE, PRAGMA optimize).\nVacuumed: "))
    #expect(table.contains("freed "))
    #expect(try fileSize(session.databasePath) < sizeBefore)
    let again = try jsonObject(session.succeed("optimize", "--vacuum", "--json"))
    #expect(again["free_pages_before"] as? Int == 0)
    #expect(again["bytes_freed"] as? Int == 0)
    // The case is whole and check calls the statistics table what it is.
    #expect(try session.suspects().count == 10)
    let check = session.succeed("check")
    #expect(check.contains("sqlite_stat1 holds the query planner's statistics"))
  }

  @Test func optimizeRefusesAMissingDatabaseAndBadOptions() throws {
    let session = try CLITestCase()
    expectFailure(session.run("optimize"), status: 66, messageContains: "no database")
    expectFailure(session.run("optimize", "--vaccum"), status: 64, messageContains: "--vaccum")
  }

  @Test func vacuumWaitsForTheBusyTimeoutThenGivesUp() throws {
    let sandbox = try ProcessSandbox()
    // Another connection holds the write lock while vacuum runs.
    let connection = try Connection(path: sandbox.databasePath)
    try connection.execute("BEGIN IMMEDIATE")
    let run = try sandbox.run("optimize", "--vacuum", "--busy-timeout", "200")
    try connection.execute("ROLLBACK")
    #expect(run.status == 75, "\(run.standardError)")
    #expect(try sandbox.run("check").status == 0)
    let after = try sandbox.run("optimize", "--vacuum")
    expectSuccess(after, "optimize --vacuum once the lock is gone")
  }

  private func fileSize(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  }
}
