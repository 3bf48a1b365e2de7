import Foundation
import Testing

@testable import SQLiteKit

/// `Connection.readingInParallel(partner:_:)`: the partner's result reaches the caller only
/// when both connections read the same snapshot.
@Suite struct ParallelReadTests {
  /// A WAL file with `t(x)` holding 1 ... `rows`.
  func makeFile(_ directory: TemporaryDirectory, rows: Int = 1000) throws -> Connection {
    let connection = try Connection(path: directory.file("parallel.sqlite"), mode: .readWriteCreate)
    try connection.execute(
      """
      CREATE TABLE t (x INTEGER PRIMARY KEY);
      WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < \(rows))
      INSERT INTO t SELECT x FROM n;
      """)
    return connection
  }

  @Test func thePartnersResultIsReadFromTheCallersSnapshot() throws {
    try withTemporaryDirectory { directory in
      let connection = try makeFile(directory)
      let (theirs, ours, inTransaction) = try connection.readingInParallel(partner: {
        try $0.scalar("SELECT sum(x) FROM t")?.integerValue
      }) { partnerResult in
        (
          partnerResult(), try connection.scalar("SELECT sum(x) FROM t")?.integerValue,
          !connection.isAutocommit
        )
      }
      #expect(ours == 500_500)
      #expect(theirs == .some(500_500))
      #expect(inTransaction)
      #expect(connection.isAutocommit)
    }
  }

  /// A commit after the partner took its snapshot may come before the caller's: the result is
  /// not used, whenever the commit came.
  @Test func aCommitWhileThePartnerReadsMakesItsResultUnusable() throws {
    try withTemporaryDirectory { directory in
      let connection = try makeFile(directory)
      let path = directory.file("parallel.sqlite")
      let result = try connection.readingInParallel(partner: { partner in
        let before = try partner.scalar("SELECT count(*) FROM t")?.integerValue
        let writer = try Connection(path: path, mode: .readWrite)
        try writer.execute("INSERT INTO t VALUES (1001)")
        // Its own snapshot still holds 1000 rows.
        return (before, try partner.scalar("SELECT count(*) FROM t")?.integerValue)
      }) { partnerResult in partnerResult() }
      #expect(result == nil)
      #expect(try connection.scalar("SELECT count(*) FROM t")?.integerValue == 1001)
    }
  }

  @Test func noPartnerInMemoryOrInsideATransaction() throws {
    let memory = try Connection(path: ":memory:", mode: .readWriteCreate)
    #expect(try memory.readingInParallel(partner: { _ in 1 }) { $0() } == nil)
    try withTemporaryDirectory { directory in
      let connection = try makeFile(directory)
      try connection.inTransaction(.deferred) {
        try connection.execute("INSERT INTO t VALUES (0)")
        let (result, count) = try connection.readingInParallel(partner: { _ in 1 }) {
          ($0(), try connection.scalar("SELECT count(*) FROM t")?.integerValue)
        }
        #expect(result == nil)
        // The caller's own transaction, with its uncommitted row.
        #expect(count == 1001)
      }
    }
  }

  struct PartnerFailed: Error {}

  @Test func aFailingPartnerGivesNilAndTheCallersErrorsPropagate() throws {
    try withTemporaryDirectory { directory in
      let connection = try makeFile(directory)
      let result = try connection.readingInParallel(partner: { _ -> Int in throw PartnerFailed() })
      {
        $0()
      }
      #expect(result == nil)
      #expect(throws: PartnerFailed.self) {
        try connection.readingInParallel(partner: { _ in 1 }) { _ in throw PartnerFailed() }
      }
      // Nothing was left open by either.
      #expect(connection.isAutocommit)
      try connection.execute("INSERT INTO t VALUES (1001)")
    }
  }

  /// A partner that cannot open the file (it was removed after this connection opened it).
  @Test func aPartnerThatCannotOpenTheFileGivesNil() throws {
    try withTemporaryDirectory { directory in
      let connection = try makeFile(directory)
      try connection.execute("PRAGMA journal_mode = DELETE")
      try FileManager.default.removeItem(atPath: directory.file("parallel.sqlite"))
      let result = try connection.readingInParallel(partner: { _ in 1 }) { $0() }
      #expect(result == nil)
    }
  }
}
