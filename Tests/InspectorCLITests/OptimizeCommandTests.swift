import Foundation
import SQLiteKit
import Testing

@testable import InspectorCLI

/// `inspector optimize [--vacuum]` end to end.
struct OptimizeCommandTests {
  @Test func optimizeAnalyzesAndVacuumGivesFreePagesBack() throws {
    let session = try CLITestCase(seeded: true)
    Self.makeFreePages(session)
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

  /// `optimize` folds the keys other clients wrote beyond ASCII and indexes their records, as
  /// every write does (reads leave both to the next write).
  @Test func optimizeFoldsKeysAndIndexesWhatOtherClientsWrote() throws {
    let session = try CLITestCase.seeded(
      writtenByAnotherClient:
        "INSERT INTO animals (id, name, species, paw_size) VALUES (11, 'ΑΛΕΞ', 'ΛΥΚΟΣ', 'small')")
    let reader = try Connection(path: session.databasePath, mode: .readOnly)
    let state = """
      SELECT species_key || '/' || quote(species_folded_from) || '/'
        || (SELECT count(*) FROM search_queue) FROM animals WHERE id = 11
      """
    #expect(try reader.scalar(state)?.textValue == "ΛΥΚΟΣ/NULL/1")
    session.succeed("optimize")
    #expect(try reader.scalar(state)?.textValue == "λυκοσ/'ΛΥΚΟΣ'/0")
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

  /// A reader of an older snapshot (another connection inside a read transaction) keeps the
  /// checkpoint from copying the vacuumed database back: the file has not shrunk, so the run
  /// fails with 75 and says why, instead of reporting bytes freed that are still taken.
  @Test func aReaderBlockingTheCheckpointIsReportedNotCalledFreed() throws {
    let session = try CLITestCase(seeded: true)
    Self.makeFreePages(session)
    let sizeBefore = try fileSize(session.databasePath)
    let reader = try Connection(path: session.databasePath, mode: .readOnly)
    try reader.execute("BEGIN")
    let read = try reader.prepare("SELECT count(*) FROM animals")
    #expect(try read.step())
    #expect(read.int64(at: 0) == 10)
    let blocked = session.run("optimize", "--vacuum", "--busy-timeout", "200")
    expectFailure(
      blocked, status: 75, messageContains: "kept the checkpoint from copying it back")
    #expect(blocked.standardError.contains("the file has not shrunk yet"))
    #expect(blocked.standardError.contains("Litestream reads the file as long as it replicates"))
    #expect(blocked.standardError.contains("hint: try again, or raise --busy-timeout"))
    #expect(try fileSize(session.databasePath) == sizeBefore)
    read.reset()
    try reader.execute("COMMIT")
    // Once the reader is done, the same command gives the space back (the file's and the WAL's
    // the blocked run left) and says so.
    let onDisk = try fileSize(session.databasePath) + fileSize(session.databasePath + "-wal")
    let done = try jsonObject(session.succeed("optimize", "--vacuum", "--json"))
    let freed = try #require(done["bytes_freed"] as? Int)
    #expect(try fileSize(session.databasePath) == onDisk - freed)
    #expect(try fileSize(session.databasePath) < sizeBefore - 300 * 2000)
    #expect(try session.suspects().count == 10)
    #expect(session.succeed("check").contains("sqlite_stat1"))
  }

  /// `ANALYZE` adds `sqlite_stat1`, so a first vacuum of a compact file can end a page
  /// larger than it began; it once printed "freed 0 bytes (-1 pages ...)".
  @Test func aVacuumThatFreesNothingNeverPrintsNegativePages() throws {
    let session = try CLITestCase(seeded: true)
    // Compact, and without statistics yet: the stock shell's VACUUM.
    try RestoreSafetyTests.shell(session.databasePath, "VACUUM", in: session)
    let text = session.succeed("optimize", "--vacuum")
    #expect(text.contains(" before, ") && text.contains(" after; "), "\(text)")
    #expect(text.contains("freed 0 bytes (0 pages of "), "\(text)")
    #expect(!text.contains("(-"), "\(text)")
  }

  private func fileSize(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  }

  /// 300 rows of 2,000 bytes in a table of another tool's, then dropped: their pages are free.
  /// (Removed suspects would not do: the case history keeps what they held.)
  static func makeFreePages(_ session: CLITestCase) {
    session.succeed(
      "sql", "--write",
      """
      CREATE TABLE scratch (x TEXT);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
      INSERT INTO scratch SELECT printf('%.2000c', 'x') FROM n;
      DROP TABLE scratch;
      """)
  }
}
