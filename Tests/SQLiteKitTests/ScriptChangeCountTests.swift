import Testing

@testable import SQLiteKit

/// `ScriptChangeCount`: the rows a script kept, as savepoints roll parts of it back.
@Suite struct ScriptChangeCountTests {
  @Test func aRollbackGoesBackToItsSavepointAndKeepsItOpen() {
    var count = ScriptChangeCount()
    count.statementChanged(2)
    count.apply(SavepointStep(.begin, name: "a"))
    count.statementChanged(5)
    count.apply(SavepointStep(.rollback, name: "A"))
    #expect(count.total == 2)
    // Still open: a second rollback to it goes back to the same point.
    count.statementChanged(1)
    count.apply(SavepointStep(.rollback, name: "a"))
    #expect(count.total == 2)
    count.statementChanged(4)
    count.apply(SavepointStep(.release, name: "a"))
    #expect(count.total == 6)
    // Released: a rollback to it (which SQLite refuses) changes nothing.
    count.apply(SavepointStep(.rollback, name: "a"))
    #expect(count.total == 6)
  }

  @Test func aRollbackClosesTheSavepointsOpenedAfterIt() {
    var count = ScriptChangeCount()
    count.apply(SavepointStep(.begin, name: "outer"))
    count.statementChanged(1)
    count.apply(SavepointStep(.begin, name: "inner"))
    count.statementChanged(1)
    count.apply(SavepointStep(.rollback, name: "outer"))
    #expect(count.total == 0)
    // `inner` closed with the rollback: rolling back to it changes nothing.
    count.statementChanged(3)
    count.apply(SavepointStep(.rollback, name: "inner"))
    #expect(count.total == 3)
  }

  @Test func aNameUsedTwiceMeansTheNewestSavepoint() {
    var count = ScriptChangeCount()
    count.apply(SavepointStep(.begin, name: "s"))
    count.statementChanged(1)
    count.apply(SavepointStep(.begin, name: "s"))
    count.statementChanged(1)
    count.apply(SavepointStep(.rollback, name: "s"))
    #expect(count.total == 1)
    count.apply(SavepointStep(.release, name: "s"))
    count.apply(SavepointStep(.rollback, name: "s"))
    #expect(count.total == 0)
  }

  @Test func namesAreOneIgnoringTheCaseOfASCIILettersOnly() {
    #expect(ScriptChangeCount.sameName("Outer", "oUTER"))
    #expect(!ScriptChangeCount.sameName("É", "é"))
    #expect(!ScriptChangeCount.sameName("a", "b"))
  }
}
