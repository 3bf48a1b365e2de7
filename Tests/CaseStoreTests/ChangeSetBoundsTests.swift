import SQLiteKit
import Testing

@testable import CaseStore

/// A change set's changes are the ids from its `first_change_id` up to the next one's
/// (``ChangeSetBounds``): on a history of change sets of every size, empty ones among them, and
/// with gaps in the ids, each change set's range holds exactly the changes its writes recorded.
@Suite struct ChangeSetBoundsTests {
  /// The ids the changes of `write` took: from the next id before it to the next id after.
  private func recorded(_ database: CaseDatabase, _ write: () throws -> Void) throws
    -> Range<Int64>
  {
    let bounds = ChangeSetBounds(connection: database.connection)
    let start = try bounds.endOfChanges()
    try write()
    return start..<(try bounds.endOfChanges())
  }

  /// The newest change set's id.
  private func newestChangeSet(_ database: CaseDatabase) throws -> Int64 {
    try #require(try database.rows("SELECT max(id) FROM history_change_sets")[0][0].integerValue)
  }

  @Test func everyChangeSetHoldsTheChangesItsWritesRecorded() throws {
    let database = try seededDatabase()
    var expected: [Int64: Range<Int64>] = [:]
    func record(_ write: () throws -> Void) throws {
      let ids = try recorded(database, write)
      expected[try newestChangeSet(database)] = ids
    }
    try record { try database.write(nil) { try $0.suspects.setAlibi(id: 1, "Swimming.") } }
    try record {
      try database.write(nil) { transaction in
        _ = try transaction.suspects.add(
          contentsOf: (1...100).map {
            NewSuspect(name: "Newt \($0)", species: "Newt \($0)", pawSize: .small)
          })
      }
    }
    // Another client's statement that changes nothing: a change set of its own, empty.
    try record {
      try database.connection.execute(
        "INSERT OR IGNORE INTO fruits (id, name, color) SELECT id, name, color FROM fruits")
    }
    try record { try database.write(nil) { try $0.suspects.setAlibi(id: 2, "Gliding.") } }
    try record { try database.connection.execute("UPDATE animals SET name = 'Dingo' WHERE id = 3") }
    #expect(expected.count == 5)
    #expect(expected.values.contains { $0.isEmpty })
    #expect(expected.values.contains { $0.count >= 100 })
    let bounds = ChangeSetBounds(connection: database.connection)
    for (changeSet, ids) in expected {
      #expect(try bounds.changes(of: changeSet) == ids, "change set \(changeSet)")
    }
    // Changes removed from the middle of the ids: the ranges stay, with the gaps in them.
    try database.connection.execute(
      "DELETE FROM history_changes WHERE id IN (3, 4, 5, 40, 41, 99)")
    for (changeSet, ids) in expected {
      #expect(try bounds.changes(of: changeSet) == ids, "change set \(changeSet)")
      // Each change of the range is read as its change set's.
      let owners = try database.rows(
        """
        SELECT DISTINCT \(ChangeSetBounds.changeSet(of: "h.id")) FROM history_changes AS h
        WHERE h.id >= ? AND h.id < ?
        """, [ids.lowerBound, ids.upperBound]
      ).map { $0[0].integerValue }
      #expect(owners.allSatisfy { $0 == changeSet }, "change set \(changeSet): \(owners)")
    }
    #expect(try bounds.changes(of: try newestChangeSet(database) + 1).isEmpty)
    #expect(
      try bounds.endOfChanges()
        == (try database.rows("SELECT max(id) + 1 FROM history_changes")[0][0].integerValue))
  }

  @Test func anEmptyHistoryEndsAtOne() throws {
    let database = try CaseDatabase()
    let bounds = ChangeSetBounds(connection: database.connection)
    #expect(try bounds.endOfChanges() == 1)
    #expect(try bounds.firstChange(from: 1) == 1)
    #expect(try bounds.changes(of: 1).isEmpty)
  }

  /// A change moved by hand to the next change set (that one's first change moved back) leaves
  /// the change set it belonged to without it: the chain reports that change set.
  @Test func aChangeMovedToAnotherChangeSetIsTheFault() throws {
    let database = try seededDatabase()
    try database.write(nil) { try $0.suspects.setAlibi(id: 1, "Swimming.") }
    try database.write(nil) { try $0.suspects.setAlibi(id: 2, "Gliding.") }
    #expect(try HistoryChain.verify(database.connection).fault == nil)
    let last = try newestChangeSet(database)
    try database.connection.execute(
      "UPDATE history_change_sets SET first_change_id = first_change_id - 1 WHERE id = ?", [last])
    #expect(try HistoryChain.verify(database.connection).fault == .mismatch(changeSet: last - 1))
  }

  /// A change added by hand after the last one is read as part of the last change set; one
  /// added before the first id is read as the first's: the chain reports that change set.
  @Test(arguments: [
    ("(SELECT max(id) + 1 FROM history_changes)", Int64(3)),
    ("-5", Int64(1)),
  ])
  func aChangeAddedOutOfOrderIsTheFault(place: String, fault: Int64) throws {
    let database = try seededDatabase()
    try database.write(nil) { try $0.suspects.setAlibi(id: 1, "Swimming.") }
    try database.write(nil) { try $0.suspects.setAlibi(id: 2, "Gliding.") }
    #expect(try HistoryChain.verify(database.connection).fault == nil)
    try database.connection.execute(
      """
      INSERT INTO history_changes (id, table_id, key1, key2, operation, v1)
      VALUES (\(place), 4, 3, NULL, 1, 'Forged.')
      """)
    #expect(try HistoryChain.verify(database.connection).fault == .mismatch(changeSet: fault))
  }
}
