import Testing

@testable import SQLiteKit

/// `inTransaction` and `inSavepoint`: all of a body's work, or none of it.
@Suite struct TransactionTests {
  struct Refusal: Error, Equatable {
    let reason: String
  }

  let db: Connection

  init() throws {
    db = try Connection(path: ":memory:")
    try db.execute("CREATE TABLE clue (text TEXT NOT NULL UNIQUE)")
  }

  private func clues() throws -> [String] {
    try db.allRows("SELECT text FROM clue ORDER BY rowid").compactMap { $0.first?.textValue }
  }

  private func add(_ clue: String) throws {
    try db.execute("INSERT INTO clue (text) VALUES (?)", [clue])
  }

  @Test(arguments: [TransactionKind.deferred, .immediate, .exclusive])
  func commitsWhenTheBodyReturns(kind: TransactionKind) throws {
    let result = try db.inTransaction(kind) { () throws -> Int in
      #expect(!db.isAutocommit)
      try add("pear core under the bench")
      try add("black feather")
      return 2
    }
    #expect(result == 2)
    #expect(db.isAutocommit)
    #expect(try clues() == ["pear core under the bench", "black feather"])
  }

  @Test func committedWorkIsVisibleToAnotherConnection() throws {
    try withTemporaryDirectory { directory in
      let path = directory.file("case.sqlite")
      let writer = try Connection(path: path, mode: .readWriteCreate)
      try writer.execute("CREATE TABLE clue (text TEXT)")
      let reader = try Connection(path: path, mode: .readOnly)
      try writer.inTransaction {
        try writer.execute("INSERT INTO clue VALUES ('feather')")
        #expect(try reader.count("clue") == 0)
      }
      #expect(try reader.count("clue") == 1)
    }
  }

  @Test func rollsBackAndRethrowsWhenTheBodyThrows() throws {
    try add("kept")
    let error = #expect(throws: Refusal.self) {
      try db.inTransaction {
        try add("lost 1")
        try add("lost 2")
        throw Refusal(reason: "alibi checks out")
      }
    }
    #expect(error == Refusal(reason: "alibi checks out"))
    #expect(db.isAutocommit)
    #expect(try clues() == ["kept"])
  }

  @Test func rollsBackWhenAStatementFails() throws {
    try add("feather")
    let error = #expect(throws: SQLiteError.self) {
      try db.inTransaction {
        try add("pip")
        try add("feather")
      }
    }
    #expect(error?.extendedCode.rawValue == 2067)
    #expect(try clues() == ["feather"])
  }

  // MARK: - Not re-entrant

  @Test func aTransactionInsideATransactionIsRefusedAndItsBodyNeverRuns() throws {
    try db.inTransaction {
      try add("outer before")
      var ran = false
      let error = #expect(throws: SQLiteError.self) {
        try db.inTransaction {
          ran = true
          try add("inner")
        }
      }
      #expect(error?.code == .misuse)
      #expect(!ran)
      #expect(!db.isAutocommit)
      try add("outer after")
    }
    #expect(try clues() == ["outer before", "outer after"])
  }

  @Test func aTransactionInsideASavepointIsRefused() throws {
    try db.inSavepoint(named: "outer") {
      #expect(throws: SQLiteError.self) { try db.inTransaction { try add("inner") } }
      try add("kept")
    }
    #expect(try clues() == ["kept"])
  }

  @Test func aTransactionAfterABeginByHandIsRefusedAndLeavesItOpen() throws {
    try db.execute("BEGIN")
    let error = #expect(throws: SQLiteError.self) { try db.inTransaction { try add("x") } }
    #expect(error?.code == .misuse)
    #expect(!db.isAutocommit)
    try db.execute("ROLLBACK")
    #expect(try clues() == [])
  }

  @Test func aRefusedNestedTransactionRollsBackTheOuterOneWhenItPropagates() throws {
    #expect(throws: SQLiteError.self) {
      try db.inTransaction {
        try add("outer")
        try db.inTransaction { try add("inner") }
      }
    }
    #expect(db.isAutocommit)
    #expect(try clues() == [])
  }

  // MARK: - Named savepoints

  @Test func aSavepointInsideATransactionThatThrowsUndoesOnlyItself() throws {
    try db.inTransaction {
      try add("outer before")
      #expect(throws: Refusal.self) {
        try db.inSavepoint(named: "inner") {
          #expect(!db.isAutocommit)
          try add("inner")
          throw Refusal(reason: "inner fails")
        }
      }
      #expect(!db.isAutocommit)
      try add("outer after")
    }
    #expect(try clues() == ["outer before", "outer after"])
  }

  @Test func aSavepointThatReturnsIsKeptWithTheOuterTransaction() throws {
    try db.inTransaction {
      try add("outer")
      try db.inSavepoint(named: "inner") { try add("inner") }
    }
    #expect(try clues() == ["outer", "inner"])
  }

  @Test func nestedSavepointsMayShareAName() throws {
    try db.inSavepoint(named: "step") {
      try add("outer")
      #expect(throws: Refusal.self) {
        try db.inSavepoint(named: "step") {
          try add("inner")
          throw Refusal(reason: "inner goes")
        }
      }
      try db.inSavepoint(named: "step") { try add("second inner") }
    }
    #expect(try clues() == ["outer", "second inner"])
    #expect(db.isAutocommit)
  }

  @Test(arguments: ["order", "Step_2", "_", String(repeating: "s", count: 64)])
  func savepointNamesAreQuotedIdentifiers(name: String) throws {
    // A keyword such as ORDER is a fine name once quoted.
    try db.inSavepoint(named: name) { try add(name) }
    #expect(try clues() == [name])
  }

  @Test(
    arguments: [
      "", "2nd", "a b", "a;DROP TABLE clue", "x\"y", "sp-1", "é", String(repeating: "s", count: 65),
    ])
  func savepointNamesThatAreNotIdentifiersAreRefused(name: String) throws {
    var ran = false
    let error = #expect(throws: SQLiteError.self) {
      try db.inSavepoint(named: name) { ran = true }
    }
    #expect(error?.code == .misuse)
    #expect(!ran)
    #expect(db.isAutocommit)
    #expect(try clues() == [])
  }

  @Test func outerRollbackUndoesAReleasedSavepoint() throws {
    #expect(throws: Refusal.self) {
      try db.inTransaction {
        try db.inSavepoint(named: "inner") { try add("inner") }
        throw Refusal(reason: "outer fails")
      }
    }
    #expect(try clues() == [])
  }

  @Test func savepointRollbackInsideATransaction() throws {
    try db.inTransaction {
      try add("a")
      #expect(throws: Refusal.self) {
        try db.inSavepoint(named: "b") {
          try add("b")
          try db.inSavepoint(named: "c") { try add("c") }
          throw Refusal(reason: "b and c go")
        }
      }
      try db.inSavepoint(named: "d") { try add("d") }
    }
    #expect(try clues() == ["a", "d"])
  }

  @Test func innerSavepointRollbackKeepsTheMiddleOne() throws {
    try db.inSavepoint(named: "middle") {
      try add("middle")
      #expect(throws: Refusal.self) {
        try db.inSavepoint(named: "inner") {
          try add("inner")
          throw Refusal(reason: "inner goes")
        }
      }
    }
    #expect(try clues() == ["middle"])
    #expect(db.isAutocommit)
  }

  @Test func savepointOutsideATransactionRollsBack() throws {
    #expect(throws: Refusal.self) {
      try db.inSavepoint(named: "sp") {
        #expect(!db.isAutocommit)
        try add("gone")
        throw Refusal(reason: "no")
      }
    }
    #expect(db.isAutocommit)
    #expect(try clues() == [])
    let kept = try db.inSavepoint(named: "sp") { () throws -> String in
      try add("kept")
      return "ok"
    }
    #expect(kept == "ok")
    #expect(db.isAutocommit)
    #expect(try clues() == ["kept"])
  }

  @Test func immediateTransactionFailsWithBusyWhileAnotherWriterHoldsTheLock() throws {
    try withTemporaryDirectory { directory in
      let path = directory.file("case.sqlite")
      let first = try Connection(path: path, mode: .readWriteCreate)
      try first.execute("CREATE TABLE clue (text TEXT)")
      let second = try Connection(path: path, mode: .readWrite, busyTimeout: 0)
      try first.execute("BEGIN IMMEDIATE")
      var ran = false
      let error = #expect(throws: SQLiteError.self) {
        try second.inTransaction { ran = true }
      }
      #expect(error?.code == .busy)
      #expect(!ran)
      try first.execute("ROLLBACK")
    }
  }
}
