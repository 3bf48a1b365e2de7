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

  @Test func nestedTransactionIsASavepoint() throws {
    try db.inTransaction {
      try add("outer before")
      do {
        try db.inTransaction {
          #expect(!db.isAutocommit)
          try add("inner")
          throw Refusal(reason: "inner fails")
        }
        Issue.record("the inner transaction should have thrown")
      } catch let refusal as Refusal {
        #expect(refusal.reason == "inner fails")
      }
      #expect(!db.isAutocommit)
      try add("outer after")
    }
    #expect(try clues() == ["outer before", "outer after"])
  }

  @Test func nestedTransactionThatReturnsIsKeptWithTheOuter() throws {
    try db.inTransaction {
      try add("outer")
      try db.inTransaction { try add("inner") }
    }
    #expect(try clues() == ["outer", "inner"])
  }

  @Test func outerRollbackUndoesAReleasedSavepoint() throws {
    #expect(throws: Refusal.self) {
      try db.inTransaction {
        try db.inSavepoint { try add("inner") }
        throw Refusal(reason: "outer fails")
      }
    }
    #expect(try clues() == [])
  }

  @Test func savepointRollbackInsideATransaction() throws {
    try db.inTransaction {
      try add("a")
      #expect(throws: Refusal.self) {
        try db.inSavepoint {
          try add("b")
          try db.inSavepoint { try add("c") }
          throw Refusal(reason: "b and c go")
        }
      }
      try db.inSavepoint { try add("d") }
    }
    #expect(try clues() == ["a", "d"])
  }

  @Test func innerSavepointRollbackKeepsTheMiddleOne() throws {
    try db.inSavepoint {
      try add("middle")
      #expect(throws: Refusal.self) {
        try db.inSavepoint {
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
      try db.inSavepoint {
        #expect(!db.isAutocommit)
        try add("gone")
        throw Refusal(reason: "no")
      }
    }
    #expect(db.isAutocommit)
    #expect(try clues() == [])
    let kept = try db.inSavepoint { () throws -> String in
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
