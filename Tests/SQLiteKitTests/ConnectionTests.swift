import Foundation
import Testing

@testable import SQLiteKit

/// How every connection is opened and configured (README "Guarantees").
@Suite struct ConnectionTests {
  private func permissions(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  @Test func readWriteCreateMakesAPrivateFile() throws {
    try withTemporaryDirectory { directory in
      let path = directory.file("case.sqlite")
      #expect(!FileManager.default.fileExists(atPath: path))
      let db = try Connection(path: path, mode: .readWriteCreate)
      try db.execute("CREATE TABLE suspect (name TEXT); INSERT INTO suspect VALUES ('crow')")
      #expect(try permissions(path) == 0o600)
      // SQLite gives the WAL and shared-memory files the database file's mode.
      #expect(try permissions(path + "-wal") == 0o600)
      #expect(try permissions(path + "-shm") == 0o600)
    }
  }

  @Test func readWriteCreateOpensAnExistingFileWithoutTouchingIt() throws {
    try withTemporaryDirectory { directory in
      let path = try directory.oneSuspectDatabase()
      let second = try Connection(path: path, mode: .readWriteCreate)
      #expect(try second.scalar("SELECT name FROM suspect") == .text("dove"))
    }
  }

  @Test func fileDatabasesUseWAL() throws {
    try withTemporaryDirectory { directory in
      let path = directory.file("case.sqlite")
      let db = try Connection(path: path, mode: .readWriteCreate)
      #expect(try db.scalar("PRAGMA journal_mode") == .text("wal"))
      let other = try Connection(path: path, mode: .readWrite)
      #expect(try other.scalar("PRAGMA journal_mode") == .text("wal"))
      let reader = try Connection(path: path, mode: .readOnly)
      #expect(try reader.scalar("PRAGMA journal_mode") == .text("wal"))
    }
  }

  /// A statement inside a transaction whose journal outgrows memory (far past
  /// `statementJournalSpillBytes`) spills it to a temporary file through
  /// `StatementJournalVFS` and succeeds; one that fails half-way rolls back from that file,
  /// leaving its transaction's earlier work and every byte of every row as they were.
  @Test func aStatementJournalLargerThanItsMemorySpills() throws {
    try withTemporaryDirectory { directory in
      let db = try Connection(path: directory.file("case.sqlite"), mode: .readWriteCreate)
      try db.execute(
        """
        CREATE TABLE clue (id INTEGER PRIMARY KEY, note BLOB, code INTEGER UNIQUE);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
        INSERT INTO clue (note, code) SELECT zeroblob(300), i FROM n;
        CREATE INDEX clue_note ON clue (note);
        """)
      let before = try db.scalar("SELECT sum(length(note)) FROM clue")
      #expect(before == .integer(6_000_000))
      try db.inTransaction(.immediate) {
        // About 8 MB of pages changed by one statement, which may fail half-way.
        try db.execute("UPDATE clue SET note = randomblob(400)")
        let written = try notes(db)
        #expect(written.count == 20_000 && written.allSatisfy { $0.count == 400 })
        #expect(throws: SQLiteError.self) {
          try db.execute(
            "UPDATE clue SET note = zeroblob(100), code = CASE WHEN id = 20000 THEN 1 ELSE code END"
          )
        }
        #expect(try notes(db) == written)
        try db.execute("DROP INDEX clue_note")
      }
      #expect(try db.scalar("SELECT sum(length(note)) FROM clue") == .integer(8_000_000))
      #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
      #expect(
        try db.scalar(
          "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = 'clue_note'")
          == .integer(0))
    }
  }

  /// A temporary database (the empty path: a case rebuilt `--as-of` is one) keeps its rollback
  /// journal in memory up to the same threshold as statement journals; a transaction that
  /// changes more spills it through `StatementJournalVFS` and succeeds, and a rollback
  /// restores every byte from that file.
  @Test func aTemporaryDatabasesJournalLargerThanItsMemorySpills() throws {
    let db = try Connection(path: "", mode: .readWriteCreate)
    try db.execute(
      """
      CREATE TABLE clue (id INTEGER PRIMARY KEY, note BLOB, code INTEGER UNIQUE);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
      INSERT INTO clue (note, code) SELECT randomblob(400), i FROM n;
      """)
    let stored = try notes(db)
    #expect(stored.count == 20_000)
    try db.execute("BEGIN IMMEDIATE")
    // About 8 MB of existing pages changed: the journal holds them all.
    try db.execute("UPDATE clue SET note = zeroblob(400)")
    #expect(try db.scalar("SELECT sum(length(note)) FROM clue") == .integer(8_000_000))
    try db.execute("ROLLBACK")
    #expect(try notes(db) == stored)
    try db.inTransaction(.immediate) { try db.execute("UPDATE clue SET note = zeroblob(300)") }
    #expect(try db.scalar("SELECT sum(length(note)) FROM clue") == .integer(6_000_000))
    #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
  }

  /// Every row's `note` of `clue`, in id order.
  private func notes(_ db: Connection) throws -> [[UInt8]] {
    let statement = try db.prepare("SELECT note FROM clue ORDER BY id")
    var notes: [[UInt8]] = []
    while try statement.step() {
      guard case .blob(let bytes) = statement.value(at: 0) else { return [] }
      notes.append(bytes)
    }
    return notes
  }

  @Test func memoryDatabaseIsNotAFile() throws {
    let db = try Connection(path: ":memory:", mode: .readWriteCreate)
    #expect(db.path == ":memory:")
    #expect(db.mode == .readWriteCreate)
    #expect(try db.scalar("PRAGMA journal_mode") == .text("memory"))
    #expect(!FileManager.default.fileExists(atPath: ":memory:"))
  }

  @Test(arguments: [Connection.OpenMode.readWriteCreate, .readWrite, .readOnly])
  func foreignKeysAreOn(mode: Connection.OpenMode) throws {
    try withTemporaryDirectory { directory in
      let path = directory.file("case.sqlite")
      _ = try Connection(path: path, mode: .readWriteCreate)
      let db = try Connection(path: path, mode: mode)
      #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
    }
  }

  @Test func foreignKeysAreOnInMemory() throws {
    let db = try Connection(path: ":memory:")
    #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
  }

  @Test(arguments: [0, 250, 5_000, 60_000])
  func busyTimeoutIsAppliedAtOpen(milliseconds: Int) throws {
    let db = try Connection(path: ":memory:", busyTimeout: milliseconds)
    #expect(db.busyTimeout == milliseconds)
    #expect(try db.scalar("PRAGMA busy_timeout") == .integer(Int64(milliseconds)))
  }

  @Test func defaultBusyTimeoutIsFiveSeconds() throws {
    let db = try Connection(path: ":memory:")
    #expect(try db.scalar("PRAGMA busy_timeout") == .integer(5_000))
  }

  @Test func settingBusyTimeoutCallsSQLite() throws {
    let db = try Connection(path: ":memory:")
    try db.setBusyTimeout(1_234)
    #expect(try db.scalar("PRAGMA busy_timeout") == .integer(1_234))
    #expect(db.busyTimeout == 1_234)
    try db.setBusyTimeout(-5)
    #expect(try db.scalar("PRAGMA busy_timeout") == .integer(0))
  }

  /// A file in rollback-journal mode whose writer holds the exclusive lock: a checking open
  /// fails with busy, and after a lock it does not try again read-only (which waited a second
  /// busy timeout), while a read-only file or directory still falls back.
  @Test func aCheckingOpenMeetingALockFailsWithoutAReadOnlyRetry() throws {
    try withTemporaryDirectory { directory in
      let path = try directory.database(
        "case.sqlite",
        running: "PRAGMA journal_mode = DELETE; CREATE TABLE suspect (name TEXT)")
      let writer = try Connection(path: path, mode: .readWrite, walMode: false)
      try writer.execute("BEGIN EXCLUSIVE")
      try writer.execute("INSERT INTO suspect VALUES ('crow')")
      let open = #expect(throws: SQLiteError.self) {
        try Connection.openForChecking(path: path, busyTimeout: 20)
      }
      #expect(open?.code == .busy)
      try writer.execute("ROLLBACK")
      #expect(try Connection.openForChecking(path: path).verifiesChecks)
    }
    for code in [ResultCode.busy, .locked] {
      #expect(!Connection.fallsBackToReadOnly(after: SQLiteError(extendedCode: code, message: "")))
    }
    for code in [ResultCode.readOnly, .cannotOpen] {
      #expect(Connection.fallsBackToReadOnly(after: SQLiteError(extendedCode: code, message: "")))
    }
  }

  @Test(arguments: [0, 50, 100])
  func writerWaitsThenFailsWithBusyWhileAnotherHoldsTheWriteLock(milliseconds: Int) throws {
    try withTemporaryDirectory { directory in
      let path = directory.file("case.sqlite")
      let first = try Connection(path: path, mode: .readWriteCreate)
      try first.execute("CREATE TABLE suspect (name TEXT)")
      let second = try Connection(path: path, mode: .readWrite, busyTimeout: milliseconds)
      try first.execute("BEGIN IMMEDIATE")
      try first.execute("INSERT INTO suspect VALUES ('crow')")

      let begin = #expect(throws: SQLiteError.self) { try second.execute("BEGIN IMMEDIATE") }
      #expect(begin?.code == .busy)
      #expect(second.isAutocommit)
      let insert = #expect(throws: SQLiteError.self) {
        try second.execute("INSERT INTO suspect VALUES ('dove')")
      }
      #expect(insert?.code == .busy)
      // WAL: readers are not blocked, and see only committed data.
      #expect(try second.count("suspect") == 0)

      try first.execute("COMMIT")
      try second.execute("INSERT INTO suspect VALUES ('dove')")
      #expect(try first.allRows("SELECT name FROM suspect ORDER BY name") == [["crow"], ["dove"]])
    }
  }

  @Test func isAutocommitFollowsTransactions() throws {
    let db = try Connection(path: ":memory:")
    #expect(db.isAutocommit)
    try db.execute("BEGIN")
    #expect(!db.isAutocommit)
    try db.execute("COMMIT")
    #expect(db.isAutocommit)
  }

  @Test func userVersionReadsTheHeader() throws {
    let db = try Connection(path: ":memory:")
    #expect(try db.userVersion() == 0)
    try db.execute("PRAGMA user_version = 42")
    #expect(try db.userVersion() == 42)
  }

  @Test(arguments: [
    ("ATTACH ':memory:' AS other", true),
    ("/* evidence */ attach database ':memory:' AS \"other\"; SELECT 1", true),
    ("SELECT 'ATTACH' AS note", false),
    ("CREATE TABLE attach (x)", false),
    ("-- only a comment", false),
  ])
  func attachesDatabaseAsksTheParser(sql: String, attaches: Bool) throws {
    let db = try Connection(path: ":memory:")
    db.setLimit(.attachedDatabases, to: 0)
    #expect(try db.attachesDatabase(sql) == attaches)
    // The authorizer is gone again: a later statement prepares and runs as usual.
    try db.execute("CREATE TABLE suspect (name TEXT)")
  }

  @Test func attachesDatabaseThrowsForSQLThatDoesNotPrepare() throws {
    let db = try Connection(path: ":memory:")
    let error = try #require(throws: SQLiteError.self) { try db.attachesDatabase("ATTACH") }
    #expect(error.code == .error)
  }

  @Test func sqliteVersionIsTheLinkedLibrary() throws {
    let db = try Connection(path: ":memory:")
    #expect(try db.scalar("SELECT sqlite_version()") == .text(Connection.sqliteVersion))
    #expect(Connection.sqliteVersion.split(separator: ".").first == "3")
  }
}
