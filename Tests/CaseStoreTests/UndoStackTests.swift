import Foundation
import SQLiteKit
import Testing

@testable import CaseStore

/// The value-based rule of undo's walk back (docs/history.md "Walking back"): a row may be
/// reverted when it holds what the change set left, whatever later change sets did in between.
@Suite("Undo stack")
struct UndoStackTests {
  /// Sets the crow's (id 4) suspicion level in one change set; returns its id.
  func setLevel(_ database: CaseDatabase, _ level: String) throws -> Int64 {
    try database.write(nil) { db in
      try db.suspects.setSuspicionLevel(id: 4, SuspicionLevel(parsing: level))
      return try #require(
        try db.connection.scalar("SELECT change_set_id FROM history_context")?.integerValue)
    }
  }

  @Test func aRowMayBeRevertedWhenItHoldsWhatTheChangeSetLeft() throws {
    let database = try seededDatabase()
    let first = try setLevel(database, "0.5")
    let second = try setLevel(database, "0.75")
    // The level is 0.75, not the 0.5 that the first change set left: refused, naming the second.
    #expect(throws: CaseError.undoConflict(changeSet: first, later: [second])) {
      try database.write(nil) { try $0.history.expectRevertible(first, excluding: nil) }
    }
    // A third change set sets it back to 0.5: two later change sets changed the row, and the
    // first may be reverted all the same.
    let third = try setLevel(database, "0.5")
    try database.write(nil) { try $0.history.expectRevertible(first, excluding: nil) }
    // The second, though, left 0.75.
    #expect(throws: CaseError.undoConflict(changeSet: second, later: [third])) {
      try database.write(nil) { try $0.history.expectRevertible(second, excluding: nil) }
    }
    // Walking back: the third, then the second (the third's undo set 0.75 back), then the first.
    for (undone, level) in [(third, 0.75), (second, 0.5), (first, 0.0)] {
      let undo = try database.write(nil) { try $0.undo() }
      #expect(undo.undone == undone)
      #expect(undo.changes == 1)
      #expect(try database.read { try $0.suspects.find("crow").suspicionLevel.value } == level)
    }
    #expect(try HistoryCheck.findings(database.connection).isEmpty)
  }

  /// `undo --to` gathers its rows in a temporary table of the connection and drops it again,
  /// whether the undo writes rows or finds nothing to write, so the connection's next write
  /// starts without it; the rows come back as they stood.
  @Test func anUndoToLeavesNoTemporaryTableBehind() throws {
    let database = try seededDatabase()
    let start = try setLevel(database, "0.25")
    _ = try setLevel(database, "0.5")
    _ = try setLevel(database, "0.75")
    func temporaryTables() throws -> Int64? {
      try database.connection.scalar("SELECT count(*) FROM temp.sqlite_schema")?.integerValue
    }
    let undo = try database.write(nil) { try $0.undo(to: start) }
    #expect(undo.changes == 1)
    #expect(try database.read { try $0.suspects.find("crow").suspicionLevel.value } == 0.25)
    #expect(try temporaryTables() == 0)
    // Nothing differs from how the rows stood after `start` now: nothing written, none kept.
    let again = try database.write(nil) { try $0.undo(to: start) }
    #expect(again.changes == 0)
    #expect(try temporaryTables() == 0)
  }
}
