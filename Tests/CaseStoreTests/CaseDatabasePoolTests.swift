import Foundation
import SQLiteKit
import Synchronization
import Testing

@testable import CaseStore

/// `CaseDatabasePool` (docs/web-desk.md "API"): read connections shared by concurrent
/// requests, each read one snapshot that never waits for the writer, one write at a time (a
/// second one busy past the timeout), the file's data version, and as-of reads.
@Suite struct CaseDatabasePoolTests {
  /// A seeded case file at `path`, written and closed.
  func seedFile(at path: String) throws {
    let database = try CaseDatabase(path: path, access: .create)
    try database.write(nil) { try SeedCase.load(into: $0, on: seedDay) }
  }

  @Test func concurrentReadsFromSeveralThreadsEachSeeTheCase() throws {
    try withTemporaryFile { path in
      try seedFile(at: path)
      let pool = try CaseDatabasePool(path: path, readOnly: true, readers: 3)
      let results = Mutex<[String]>([])
      let failures = Mutex<[String]>([])
      DispatchQueue.concurrentPerform(iterations: 12) { index in
        do {
          let name = try pool.read { db in
            // Held a while, so that more threads want a connection than the pool has.
            usleep(20_000)
            return try db.suspects.suspect(id: Int64(index % 10 + 1))?.name ?? "?"
          }
          results.withLock { $0.append(name) }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
      #expect(failures.withLock { $0 } == [])
      let names = results.withLock { $0 }
      #expect(names.count == 12)
      #expect(Set(names) == Set(SeedCase.suspects.map(\.name)))
    }
  }

  @Test func aReturnedConnectionGoesToTheReadThatWaitedLongest() throws {
    try withTemporaryFile { path in
      try seedFile(at: path)
      let pool = try CaseDatabasePool(path: path, readOnly: true, readers: 1)
      let held = try pool.openRead()
      let order = Mutex<[String]>([])
      let waited = DispatchSemaphore(value: 0)
      // One read waits for the one connection...
      Thread.detachNewThread {
        _ = try? pool.read { _ in order.withLock { $0.append("waiting") } }
        waited.signal()
      }
      usleep(200_000)
      // ...which, given back, goes to it, not to a read that comes just after.
      held.end()
      try pool.read { _ in order.withLock { $0.append("later") } }
      #expect(waited.wait(timeout: .now() + 5) == .success)
      #expect(order.withLock { $0 } == ["waiting", "later"])
    }
  }

  @Test func anOpenReadIsOneSnapshotUntilItEnds() throws {
    try withTemporaryFile { path in
      try seedFile(at: path)
      let pool = try CaseDatabasePool(path: path, readOnly: false, readers: 1)
      let read = try pool.openRead()
      let before = try read.reader.suspects.suspect(id: 4)?.pawSize
      #expect(before != nil && before != .large)
      let other = try Connection(path: path, mode: .readWrite)
      try other.execute("UPDATE animals SET paw_size = 'large' WHERE id = 4")
      #expect(try read.reader.suspects.suspect(id: 4)?.pawSize == before)
      read.end()
      read.end()
      #expect(try pool.read { try $0.suspects.suspect(id: 4)?.pawSize } == .large)
    }
  }

  @Test func aReadDuringALongWriteSeesTheSnapshotBeforeIt() throws {
    try withTemporaryFile { path in
      try seedFile(at: path)
      let pool = try CaseDatabasePool(path: path, readOnly: false)
      let written = DispatchSemaphore(value: 0)
      let release = DispatchSemaphore(value: 0)
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        _ = try? pool.write(try! ChangeAttribution(actor: "tester")) { db in
          try db.suspects.setSuspicionLevel(id: 4, SuspicionLevel(0.9)!)
          written.signal()
          release.wait()
        }
        done.signal()
      }
      written.wait()
      // The write holds its transaction open; a read neither waits nor sees it.
      let started = Date()
      let during = try pool.read { try $0.suspects.suspect(id: 4)?.suspicionLevel.value }
      #expect(during == 0.0)
      #expect(Date().timeIntervalSince(started) < 1)
      release.signal()
      done.wait()
      #expect(try pool.read { try $0.suspects.suspect(id: 4)?.suspicionLevel.value } == 0.9)
    }
  }

  @Test func aSecondWriteWhileOneRunsIsBusyPastTheTimeout() throws {
    try withTemporaryFile { path in
      try seedFile(at: path)
      let pool = try CaseDatabasePool(path: path, readOnly: false, busyTimeout: 100)
      let writing = DispatchSemaphore(value: 0)
      let release = DispatchSemaphore(value: 0)
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        _ = try? pool.write(nil) { _ in
          writing.signal()
          release.wait()
        }
        done.signal()
      }
      writing.wait()
      var code: ResultCode?
      do {
        try pool.write(nil) { try $0.suspects.setSuspicionLevel(id: 1, SuspicionLevel(0.5)!) }
      } catch let error as SQLiteError {
        code = error.code
      }
      release.signal()
      done.wait()
      #expect(code == .busy)
      // Nothing of the refused write was stored.
      #expect(try pool.read { try $0.suspects.suspect(id: 1)?.suspicionLevel.value } == 0.0)
    }
  }

  @Test func aReadOnlyPoolRefusesEveryWrite() throws {
    try withTemporaryFile { path in
      try seedFile(at: path)
      let pool = try CaseDatabasePool(path: path, readOnly: true)
      #expect(throws: SQLiteError.self) {
        try pool.write(nil) { try $0.suspects.setSuspicionLevel(id: 1, SuspicionLevel(0.5)!) }
      }
    }
  }

  @Test func theDataVersionMovesWhenAnyConnectionCommits() throws {
    try withTemporaryFile { path in
      try seedFile(at: path)
      let pool = try CaseDatabasePool(path: path, readOnly: false)
      let first = try pool.dataVersion()
      #expect(try pool.dataVersion() == first)
      // Another client, as the sqlite3 shell would.
      let other = try Connection(path: path, mode: .readWrite)
      try other.execute("UPDATE animals SET paw_size = 'large' WHERE id = 1")
      let second = try pool.dataVersion()
      #expect(second != first)
      // The pool's own writer counts too.
      try pool.write(nil) { try $0.suspects.setSuspicionLevel(id: 2, SuspicionLevel(0.3)!) }
      #expect(try pool.dataVersion() != second)
    }
  }

  @Test func anAsOfReadSeesTheCaseThenAndIsKeptForTheNextRequest() throws {
    try withTemporaryFile { path in
      try seedFile(at: path)
      let pool = try CaseDatabasePool(path: path, readOnly: false)
      let seeded = try pool.read { db in try db.history.changeSet(asOf: "1") }
      try pool.write(nil) { try $0.suspects.setSuspicionLevel(id: 10, SuspicionLevel(0.7)!) }
      let then = try pool.read(asOf: "\(seeded)") {
        try $0.suspects.suspect(id: 10)?.suspicionLevel.value
      }
      let now = try pool.read(asOf: nil) { try $0.suspects.suspect(id: 10)?.suspicionLevel.value }
      #expect(then == 0.0)
      #expect(now == 0.7)
      #expect(try pool.read(asOf: "\(seeded)") { try $0.suspects.count() } == 10)
      #expect(throws: CaseError.self) { try pool.read(asOf: "999") { try $0.suspects.count() } }
    }
  }

  @Test func anAsOfReadOfOneSuspectRebuildsOnlyItsRowsUnlessTheCaseIsKept() throws {
    try withTemporaryFile { path in
      try seedFile(at: path)
      let pool = try CaseDatabasePool(path: path, readOnly: false)
      let seeded = try pool.read { db in try db.history.changeSet(asOf: "1") }
      try pool.write(nil) { try $0.suspects.setSuspicionLevel(id: 10, SuspicionLevel(0.7)!) }
      let alone = try pool.read(asOf: "\(seeded)", suspect: 10) { db in
        (try db.suspects.count(), try db.suspects.suspect(id: 10)?.suspicionLevel.value)
      }
      #expect(alone.0 == 1)
      #expect(alone.1 == 0.0)
      // Once the whole case then is kept, one suspect's read uses it.
      _ = try pool.read(asOf: "\(seeded)") { try $0.suspects.count() }
      #expect(try pool.read(asOf: "\(seeded)", suspect: 10) { try $0.suspects.count() } == 10)
    }
  }
}
