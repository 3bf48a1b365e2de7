import Foundation
import SQLiteKit
import Synchronization
import Testing

@testable import CaseStore

/// `CaseDatabase.read` and `write` (docs/design.md "The unit of work"): one snapshot per read,
/// one transaction and one change set per write however many operations it runs, no nesting,
/// nothing left by a failed body, and one look at the file before SQLite opens it.
@Suite struct UnitOfWorkTests {
  /// A seeded case file at `path`, written and closed.
  func seedFile(at path: String) throws {
    let database = try CaseDatabase(path: path, access: .create)
    try database.write(nil) { try SeedCase.load(into: $0, on: seedDay) }
  }

  // MARK: - A read on a writable connection

  /// A read unit on a read-write connection keeps `PRAGMA query_only` on, which also refuses
  /// the private `temp` index a search builds for records another client just changed: the
  /// search still finds them.
  @Test func aSearchInAReadOnAWritableConnectionFindsWhatAnotherClientJustWrote() throws {
    let database = try seededDatabase()
    try database.connection.execute(
      "INSERT INTO animals (name, species, paw_size) VALUES ('Quill', 'Porcupine', 'small')")
    #expect(try database.read { try $0.pendingSearchChanges() } == 1)
    let hits = try database.read {
      try $0.search("porcupine", raw: false, limit: 10, marks: (open: "[", close: "]"))
    }
    #expect(hits.map(\.subject) == ["Quill the Porcupine"])
    #expect(try database.read { try $0.pendingSearchChanges() } == 1)
  }

  // MARK: - One change set per write

  @Test func aWriteOfSeveralOperationsIsOneTransactionAndOneChangeSet() throws {
    let database = try seededDatabase()
    let before = try database.rowCount("history_change_sets")
    var statements: [String] = []
    try database.connection.traceStatements { statements.append($0) }
    try database.write(ChangeAttribution(actor: "ann", note: "one visit")) { db in
      let crow = try db.suspects.resolve("crow")
      try db.suspects.setAlibi(id: crow, "At the library.")
      try db.suspects.setSuspicionLevel(id: crow, SuspicionLevel(0.8)!)
      try db.fruits.add(name: "Durian", color: "green")
    }
    try database.connection.traceStatements(nil)
    #expect(try database.rowCount("history_change_sets") == before + 1)
    let latest = try database.rows(
      """
      SELECT s.actor, s.note, CASE e.table_id WHEN 1 THEN 'fruits' WHEN 4 THEN 'alibis'
        WHEN 6 THEN 'suspicion_levels' END FROM history_changes e
      JOIN history_change_sets s ON s.id = \(ChangeSetBounds.changeSet(of: "e.id"))
      WHERE s.id = (SELECT max(id) FROM history_change_sets) ORDER BY e.id
      """)
    #expect(
      latest.map { $0.map { $0.textValue ?? "" } } == [
        ["ann", "one visit", "alibis"], ["ann", "one visit", "suspicion_levels"],
        ["ann", "one visit", "fruits"],
      ])
    // One BEGIN, no savepoint: the repositories open no transaction of their own.
    #expect(statements.filter { $0.hasPrefix("BEGIN") } == ["BEGIN IMMEDIATE TRANSACTION"])
    #expect(!statements.contains { $0.uppercased().hasPrefix("SAVEPOINT") })
    // The change set's bookkeeping (statements of triggers are traced as `-- ` comments).
    let own = statements.filter { !$0.hasPrefix("--") }
    #expect(own.filter { $0.hasPrefix("INSERT INTO history_change_sets") }.count == 1)
    #expect(own.filter { $0.hasPrefix("INSERT OR REPLACE INTO history_context") }.count == 1)
  }

  // MARK: - No nesting

  @Test func aUnitInsideAUnitIsRefusedNotNested() throws {
    let database = try seededDatabase()
    #expect(throws: UnitOfWorkError.alreadyOpen) {
      try database.write(nil) { db in
        try db.suspects.setAlibi(id: 1, "Swimming.")
        try database.write(nil) { try $0.suspects.setAlibi(id: 2, "Flying.") }
      }
    }
    #expect(throws: UnitOfWorkError.alreadyOpen) {
      try database.read { _ in try database.write(nil) { _ in } }
    }
    #expect(throws: UnitOfWorkError.alreadyOpen) {
      try database.write(nil) { _ in try database.read { _ in } }
    }
    // The refused outer write stored nothing, and the database takes the next unit.
    #expect(try database.read { try $0.suspects.find("Fish").alibi } == "")
    #expect(database.connection.isAutocommit)
    try database.write(nil) { db in
      try db.suspects.setAlibi(id: 1, "Swimming.")
      // A body that catches the refusal goes on in its own unit.
      #expect(throws: UnitOfWorkError.alreadyOpen) { try database.read { _ in } }
    }
    #expect(try database.read { try $0.suspects.find("Fish").alibi } == "Swimming.")
  }

  // MARK: - One snapshot per read

  @Test func aReadSeesOneSnapshotWhateverAnotherConnectionCommits() throws {
    try withTemporaryFile { path in
      try seedFile(at: path)
      let reader = try CaseDatabase(path: path, access: .readOnly)
      let other = try Connection(path: path, mode: .readWrite)
      let (first, second, mole) = try reader.read { db in
        let first = try db.suspects.count()
        try other.execute(
          "INSERT INTO animals (name, species, paw_size) VALUES ('Mo', 'Mole', 'small')")
        let second = try db.suspects.count()
        let mole = try? db.suspects.find("mole")
        return (first, second, mole)
      }
      #expect(first == 10)
      #expect(second == 10)
      #expect(mole == nil)
      // The next unit sees the commit.
      #expect(try reader.read { try $0.suspects.count() } == 11)
      #expect(try reader.read { try $0.suspects.find("mole").name } == "Mo")
    }
  }

  @Test func aReadOnAWritableConnectionCannotWrite() throws {
    let database = try seededDatabase()
    let error = try #require(throws: SQLiteError.self) {
      try database.read { db in try db.connection.execute("DELETE FROM alibis") }
    }
    #expect(error.code == .readOnly)
    try database.write(nil) { try $0.suspects.setAlibi(id: 1, "Swimming.") }
    #expect(try database.read { try $0.suspects.find("Fish").alibi } == "Swimming.")
  }

  // MARK: - A failed body leaves nothing

  @Test func aFailedBodyLeavesNoRowAndNoChangeSet() throws {
    let database = try seededDatabase()
    let tables = [
      "animals", "fruits", "alibis", "suspicion_levels", "history_change_sets", "history_changes",
      "history_context", "search_queue",
    ]
    let before = try tables.map { try database.rowCount($0) }
    struct Stop: Error {}
    #expect(throws: Stop.self) {
      try database.write(ChangeAttribution(actor: "ann")) { db in
        try db.fruits.add(name: "Durian", color: "green")
        try db.suspects.add(NewSuspect(name: "Mo", species: "Mole", pawSize: .small))
        try db.suspects.setAlibi(id: 1, "Swimming.")
        throw Stop()
      }
    }
    // A refused operation after others: the whole unit goes.
    #expect(throws: CaseError.duplicateSpecies("crow")) {
      try database.write(nil) { db in
        try db.fruits.add(name: "Durian", color: "green")
        try db.suspects.add(NewSuspect(name: "Other", species: "crow", pawSize: .small))
      }
    }
    #expect(try tables.map { try database.rowCount($0) } == before)
    #expect(try database.read { try $0.fruits.all().count } == 19)
    #expect(database.connection.isAutocommit)
  }

  // MARK: - One look at the file

  @Test func openingLooksAtTheFileOnceForEveryAccess() throws {
    try withTemporaryFile { path in
      try seedFile(at: path)
      for access in [CaseDatabase.Access.readOnly, .readWrite, .create] {
        let looks = Mutex<[String]>([])
        try CaseFile.$fileCheckObserver.withValue({ path in looks.withLock { $0.append(path) } }) {
          _ = try CaseDatabase(checkingFileAt: path, access: access)
        }
        #expect(looks.withLock { $0 } == [path], "\(access)")
      }
    }
  }

  @Test func theOneLookKeepsEveryRefusal() throws {
    try withTemporaryFile { path in
      let looks = Mutex<[String]>([])
      try CaseFile.$fileCheckObserver.withValue({ path in looks.withLock { $0.append(path) } }) {
        #expect(throws: CaseFileError.missing(path)) {
          try CaseDatabase(checkingFileAt: path, access: .readOnly)
        }
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect(throws: CaseFileError.notADatabase(path)) {
          try CaseDatabase(checkingFileAt: path, access: .readOnly)
        }
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o600) == 0)
        #expect(throws: CaseFileError.notADatabase(path)) {
          try CaseDatabase(checkingFileAt: path, access: .readWrite)
        }
        try FileManager.default.removeItem(atPath: path)
        let foreign = try writeForeignDatabase(at: path)
        #expect(throws: foreign) { try CaseDatabase(checkingFileAt: path, access: .readWrite) }
        #expect(throws: foreign) { try CaseDatabase(checkingFileAt: path, access: .readOnly) }
      }
      #expect(looks.withLock { $0 } == Array(repeating: path, count: 5))
    }
  }
}
