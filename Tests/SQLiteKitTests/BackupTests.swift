import Foundation
import Testing

@testable import SQLiteKit

/// `backup(into:)`: a consistent, whole copy, even while another connection writes.
@Suite struct BackupTests {
  /// Creates `suspect` with `transactions` transactions of ten rows each.
  private func seed(_ db: Connection, transactions: Int) throws {
    try db.execute(
      """
      CREATE TABLE IF NOT EXISTS suspect (
        id INTEGER PRIMARY KEY, name TEXT NOT NULL, batch INTEGER NOT NULL, note BLOB)
      """)
    let insert = try db.prepare("INSERT INTO suspect (name, batch, note) VALUES (?, ?, ?)")
    for batch in 0..<transactions {
      try db.inTransaction {
        for row in 0..<10 {
          try insert.run([
            "suspect \(batch)-\(row)", batch,
            SQLiteValue.blob([UInt8](repeating: 0x5A, count: 1_000)),
          ])
        }
      }
    }
  }

  @Test func backupOfAFileIntoANewFileReadsBackEqualRows() throws {
    try withTemporaryDirectory { directory in
      let source = try Connection(path: directory.file("case.sqlite"), mode: .readWriteCreate)
      try source.execute(
        """
        CREATE TABLE witness (id INTEGER PRIMARY KEY, name TEXT, seen REAL, token BLOB);
        CREATE INDEX witness_name ON witness (name);
        PRAGMA user_version = 5;
        """)
      let insert = try source.prepare("INSERT INTO witness (name, seen, token) VALUES (?, ?, ?)")
      for (name, seen, token) in [
        ("🐦‍⬛ crow", 0.1, [0, 1, 0] as [UInt8]), ("dove", -0.0, []), ("Rénard", 23.5, [255]),
      ] {
        try insert.run([name, seen, SQLiteValue.blob(token)])
      }
      let expected = try source.allRows("SELECT * FROM witness ORDER BY id")

      let copyPath = directory.file("copy.sqlite")
      do {
        let copy = try Connection(path: copyPath, mode: .readWriteCreate)
        try source.backup(into: copy)
        #expect(try copy.allRows("SELECT * FROM witness ORDER BY id") == expected)
      }
      let reopened = try Connection(path: copyPath, mode: .readOnly)
      #expect(try reopened.allRows("SELECT * FROM witness ORDER BY id") == expected)
      #expect(try reopened.userVersion() == 5)
      #expect(try reopened.tableNames() == ["witness"])
      #expect(
        try reopened.scalar("SELECT name FROM sqlite_schema WHERE type = 'index'")
          == .text("witness_name"))
      #expect(try reopened.scalar("PRAGMA integrity_check") == .text("ok"))
    }
  }

  @Test func backupReplacesTheDestinationsContent() throws {
    let source = try Connection(path: ":memory:")
    try source.execute("CREATE TABLE fruit (name TEXT); INSERT INTO fruit VALUES ('pear')")
    let destination = try Connection(path: ":memory:")
    try destination.execute("CREATE TABLE stale (x); INSERT INTO stale VALUES (1)")
    try source.backup(into: destination)
    #expect(try destination.tableNames() == ["fruit"])
    #expect(try destination.allRows("SELECT name FROM fruit") == [["pear"]])
  }

  @Test func progressCountsDownToZero() throws {
    try withTemporaryDirectory { directory in
      let source = try Connection(path: directory.file("case.sqlite"), mode: .readWriteCreate)
      try seed(source, transactions: 30)
      let pageCount = Int(try source.scalar("PRAGMA page_count")?.integerValue ?? 0)
      #expect(pageCount > 50)

      let copy = try Connection(path: directory.file("copy.sqlite"), mode: .readWriteCreate)
      var calls: [(remaining: Int, total: Int)] = []
      try source.backup(into: copy, pagesPerStep: 10) { remaining, total in
        calls.append((remaining, total))
      }
      #expect(calls.count == (pageCount + 9) / 10)
      #expect(calls.last?.remaining == 0)
      #expect(calls.allSatisfy { $0.total == pageCount })
      #expect(calls.map(\.remaining) == calls.map(\.remaining).sorted(by: >))
      #expect(calls.first?.remaining == pageCount - 10)
      #expect(try copy.count("suspect") == 300)
    }
  }

  @Test func progressIsCalledOnceWhenCopyingAllPagesInOneStep() throws {
    let source = try Connection(path: ":memory:")
    try seed(source, transactions: 3)
    let destination = try Connection(path: ":memory:")
    var calls: [(remaining: Int, total: Int)] = []
    try source.backup(into: destination, pagesPerStep: -1) { calls.append(($0, $1)) }
    #expect(calls.count == 1)
    #expect(calls.first?.remaining == 0)
    #expect(try destination.count("suspect") == 30)
  }

  @Test func backupIntoAReadOnlyConnectionFails() throws {
    try withTemporaryDirectory { directory in
      let path = try directory.database(
        "target.sqlite", running: "CREATE TABLE keep (x); INSERT INTO keep VALUES (1)")
      let source = try Connection(path: ":memory:")
      try source.execute("CREATE TABLE fruit (name TEXT)")
      let target = try Connection(path: path, mode: .readOnly)
      let error = #expect(throws: SQLiteError.self) { try source.backup(into: target) }
      #expect(error?.code == .readOnly)
      #expect(try target.tableNames() == ["keep"])
    }
  }

  /// Semaphores and a counter shared by the test and the writer thread.
  private final class WriterState: @unchecked Sendable {
    let lock = NSLock()
    var committed = 0
    var failure: (any Error)?
    /// Signalled by the backup's first progress call: the writer may commit during the backup.
    let backupStarted = DispatchSemaphore(value: 0)
    /// Signalled by the writer after a commit that happened between two backup steps.
    let wroteDuringBackup = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
  }

  @Test func backupWhileAnotherConnectionWritesCopiesWholeTransactions() throws {
    try withTemporaryDirectory { directory in
      let path = directory.file("case.sqlite")
      let source = try Connection(path: path, mode: .readWriteCreate)
      try seed(source, transactions: 30)
      let seeded: Int64 = 300
      let state = WriterState()

      let writer = Thread {
        defer { state.finished.signal() }
        do {
          let db = try Connection(path: path, mode: .readWrite)
          let insert = try db.prepare("INSERT INTO suspect (name, batch) VALUES (?, ?)")
          for batch in 1_000..<1_300 {
            try db.inTransaction {
              for row in 0..<10 { try insert.run(["writer \(batch)-\(row)", batch]) }
            }
            let committed = state.lock.withLock {
              state.committed += 1
              return state.committed
            }
            if committed == 1 {
              state.backupStarted.wait()
            } else if committed == 2 {
              state.wroteDuringBackup.signal()
            }
          }
        } catch {
          state.lock.withLock { state.failure = error }
          state.wroteDuringBackup.signal()
        }
      }
      writer.start()

      let copyPath = directory.file("copy.sqlite")
      var steps = 0
      do {
        let copy = try Connection(path: copyPath, mode: .readWriteCreate)
        try source.backup(into: copy, pagesPerStep: 1) { remaining, _ in
          steps += 1
          if steps == 1 {
            // Let the writer commit between this step and the next, forcing a restart.
            #expect(remaining > 0)
            state.backupStarted.signal()
            state.wroteDuringBackup.wait()
          }
        }
      }
      state.finished.wait()
      #expect(state.lock.withLock { state.failure == nil })

      let copy = try Connection(path: copyPath, mode: .readOnly)
      #expect(try copy.scalar("PRAGMA integrity_check") == .text("ok"))
      let rows = try copy.count("suspect")
      #expect(rows % 10 == 0)
      // The snapshot was taken after the writer's second commit, and before its last.
      #expect(rows >= seeded + 20)
      #expect(rows <= seeded + 3_000)
      #expect(
        try copy.scalar(
          "SELECT count(*) FROM (SELECT batch FROM suspect GROUP BY batch HAVING count(*) != 10)")
          == .integer(0))
      #expect(try source.count("suspect") == seeded + 3_000)
    }
  }
}
