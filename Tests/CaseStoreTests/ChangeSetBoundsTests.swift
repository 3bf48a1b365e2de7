import SQLiteKit
import Testing

@testable import CaseStore

/// Finding a change set's changes by a search over the ids (``ChangeSetBounds``) gives what
/// `change_set_id` says, on a history of change sets of every size, empty ones among them, and
/// with gaps in the ids.
@Suite struct ChangeSetBoundsTests {
  /// The first change of change set `changeSet` or later, read the long way (every change).
  private func expectedFirstChange(_ database: CaseDatabase, from changeSet: Int64) throws
    -> Int64
  {
    try database.rows(
      """
      SELECT coalesce(
        (SELECT min(id) FROM history_changes WHERE change_set_id >= ?),
        (SELECT coalesce(max(id), 0) + 1 FROM history_changes))
      """, [changeSet])[0][0].integerValue ?? -1
  }

  /// The seed case, then change sets of one change, of 100 (less the removed), of none (another client's ignored
  /// statement), and some changes removed from the middle of the ids.
  private func variedHistory() throws -> CaseDatabase {
    let database = try seededDatabase()
    try database.write(nil) { try $0.suspects.setAlibi(id: 1, "Swimming.") }
    try database.write(nil) { transaction in
      _ = try transaction.suspects.add(
        contentsOf: (1...100).map {
          NewSuspect(name: "Newt \($0)", species: "Newt \($0)", pawSize: .small)
        })
    }
    try database.connection.execute(
      "INSERT OR IGNORE INTO fruits (id, name, color) SELECT id, name, color FROM fruits")
    try database.write(nil) { try $0.suspects.setAlibi(id: 2, "Gliding.") }
    try database.connection.execute("UPDATE animals SET name = 'Dingo' WHERE id = 3")
    try database.connection.execute(
      "DELETE FROM history_changes WHERE id IN (3, 4, 5, 40, 41, 99)")
    return database
  }

  @Test func everyChangeSetsFirstChangeIsFound() throws {
    let database = try variedHistory()
    let sets = try #require(
      try database.rows("SELECT max(id) FROM history_change_sets")[0][0].integerValue)
    let listed = try database.rows("SELECT id, grouping FROM history_change_sets")
    #expect(sets >= 6, "\(listed)")
    // The import's change set and the empty one are there.
    let sizes = try database.rows(
      """
      SELECT c.id, (SELECT count(*) FROM history_changes h WHERE h.change_set_id = c.id)
      FROM history_change_sets c ORDER BY c.id
      """
    ).map { $0[1].integerValue ?? -1 }
    #expect(sizes.contains(0))
    #expect(sizes.contains { $0 >= 90 })
    let bounds = ChangeSetBounds(connection: database.connection)
    for changeSet in 0...(sets + 2) {
      let expected = try expectedFirstChange(database, from: changeSet)
      #expect(try bounds.firstChange(from: changeSet) == expected, "change set \(changeSet)")
      // Searched from any bound at or after it: the same answer.
      for later in [changeSet + 1, changeSet + 3, sets + 1] {
        let below = try expectedFirstChange(database, from: later)
        #expect(
          try bounds.firstChange(from: changeSet, below: below) == expected,
          "change set \(changeSet) below \(below)")
      }
      let range = try bounds.changes(of: changeSet)
      let ids = try database.rows(
        "SELECT id FROM history_changes WHERE change_set_id = ? ORDER BY id", [changeSet]
      ).compactMap { $0[0].integerValue }
      #expect(
        try database.rows(
          "SELECT id FROM history_changes WHERE id >= ? AND id < ? ORDER BY id",
          [range.lowerBound, range.upperBound]
        ).compactMap { $0[0].integerValue } == ids, "change set \(changeSet)")
    }
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

  /// A change moved by hand to a later change set (its change set id out of order) leaves the
  /// change set it belonged to without it: the chain reports that change set.
  @Test func aChangeMovedToAnotherChangeSetIsTheFault() throws {
    let database = try seededDatabase()
    try database.write(nil) { try $0.suspects.setAlibi(id: 1, "Swimming.") }
    try database.write(nil) { try $0.suspects.setAlibi(id: 2, "Gliding.") }
    #expect(try HistoryChain.verify(database.connection).fault == nil)
    try database.connection.execute(
      "UPDATE history_changes SET change_set_id = 3 WHERE change_set_id = 1 AND id = 2")
    #expect(try HistoryChain.verify(database.connection).fault == .mismatch(changeSet: 1))
  }

  /// A change added by hand after the last one, naming an earlier change set, is read as part
  /// of the change set whose place it takes; one added before the first id is read first: the
  /// chain reports a change set either way (the search would not find them).
  @Test(arguments: [
    ("(SELECT max(id) + 1 FROM history_changes), 2", Int64(3)),
    ("-5, 3", Int64(1)),
  ])
  func aChangeAddedOutOfOrderIsTheFault(place: String, fault: Int64) throws {
    let database = try seededDatabase()
    try database.write(nil) { try $0.suspects.setAlibi(id: 1, "Swimming.") }
    try database.write(nil) { try $0.suspects.setAlibi(id: 2, "Gliding.") }
    #expect(try HistoryChain.verify(database.connection).fault == nil)
    try database.connection.execute(
      """
      INSERT INTO history_changes (id, change_set_id, table_id, key1, key2, operation, v1)
      VALUES (\(place), 4, 3, NULL, 1, 'Forged.')
      """)
    #expect(try HistoryChain.verify(database.connection).fault == .mismatch(changeSet: fault))
  }
}
