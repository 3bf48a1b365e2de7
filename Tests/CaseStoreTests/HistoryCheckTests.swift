import SQLiteKit
import Testing

@testable import CaseStore

/// `check`'s history check read in the chain's pass (docs/history.md "Checking the history"):
/// the same findings as the passes that name rows, for a history that agrees and for each way
/// a write can go around the triggers.
@Suite struct HistoryCheckTests {
  /// The seed case with an edit of the crow (id 4) recorded, then `sql` run on the connection
  /// with no trigger in the way (another client, or a hand-edited history).
  private func database(around sql: String) throws -> CaseDatabase {
    let database = try seededDatabase()
    try database.write(ChangeAttribution(actor: "ann")) { db in
      try db.suspects.setAlibi(id: 4, "In the nest.")
      try db.suspects.setSuspicionLevel(id: 4, SuspicionLevel(0.3)!)
    }
    let triggers = try database.rows(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'history_%'")
    for trigger in triggers {
      try database.connection.execute("DROP TRIGGER \(trigger[0].textValue!)")
    }
    try database.connection.execute(sql)
    for trigger in triggers { try database.connection.execute(trigger[1].textValue!) }
    return database
  }

  /// The findings of the one read, after checking that the passes that name rows (each table's
  /// one-pass agreement, then its two passes) find the same, and that the chain's are the
  /// chain's own.
  private func findings(_ database: CaseDatabase) throws -> [CheckFinding] {
    let both = try HistoryCheck.findingsWithChain(database.connection)
    #expect(both.history == (try HistoryCheck.findings(database.connection)))
    #expect(both.chain == (try HistoryChain.findings(database.connection)))
    return both.history + both.chain
  }

  @Test func aHistoryThatAgreesHasNoFinding() throws {
    let database = try database(around: "SELECT 1")
    #expect(try findings(database).isEmpty)
    // Decided by the digests alone: no table needs the passes that name rows.
    let pass = try #require(try HistoryCheck.digestPass(database.connection))
    #expect(pass.verdict.fault == nil)
    #expect(pass.disagreeing?.map(\.name) == [])
  }

  @Test func theDigestsOfAnAgreeingTableAreEqual() throws {
    let database = try database(around: "SELECT 1")
    let table = try #require(RecordedTable.all.first { $0.name == "alibis" })
    let live = try RowMultisetDigest(of: table, database.connection)
    // The same rows in another order digest alike; one value more or less does not.
    let reversed = try database.connection.prepare(
      "SELECT animal_id, NULL, statement, NULL, NULL, NULL, NULL, NULL FROM alibis"
        + " ORDER BY animal_id DESC")
    var again = RowMultisetDigest()
    while try reversed.step() { again.add(reversed, Array(0..<8)) }
    #expect(again == live)
    let fewer = try database.connection.prepare(
      "SELECT animal_id, NULL, statement, NULL, NULL, NULL, NULL, NULL FROM alibis LIMIT 1 OFFSET 1"
    )
    var other = RowMultisetDigest()
    while try fewer.step() { other.add(fewer, Array(0..<8)) }
    #expect(other != live)
  }

  @Test func aValueChangedAroundTheHistoryIsNamed() throws {
    let found = try findings(
      database(around: "UPDATE suspicion_levels SET level = 0.99 WHERE animal_id = 4"))
    #expect(found.map(\.table) == ["suspicion_levels"])
    #expect(found.map(\.row) == ["animal_id 4"])
    #expect(found.map(\.message) == ["level is 0.99, the history says 0.3"])
    let changed = try database(
      around: "UPDATE suspicion_levels SET level = 0.99 WHERE animal_id = 4")
    let pass = try #require(try HistoryCheck.digestPass(changed.connection))
    #expect(pass.disagreeing?.map(\.name) == ["suspicion_levels"])
  }

  @Test func aRowAddedAroundTheHistoryIsNamed() throws {
    let found = try findings(
      database(around: "INSERT INTO alibis (animal_id, statement) VALUES (2, 'Under a leaf')"))
    #expect(found.map(\.table) == ["alibis"])
    #expect(found.map(\.row) == ["animal_id 2"])
    #expect(found.map(\.message) == ["the row is not in the history"])
  }

  @Test func aRowRemovedAroundTheHistoryIsNamed() throws {
    let found = try findings(database(around: "DELETE FROM alibis WHERE animal_id = 4"))
    #expect(found.map(\.table) == ["alibis"])
    #expect(found.map(\.row) == ["animal_id 4"])
    #expect(found.map(\.message) == ["the history holds the row, the table does not"])
  }

  @Test func aHistoryEditedByHandBreaksItsSealAndDisagrees() throws {
    // The latest change of the crow's alibi, rewritten: the seal no longer matches, and the
    // history no longer holds the live row.
    let found = try findings(
      database(
        around: """
          UPDATE history_changes SET v1 = 'Elsewhere.' WHERE id = (
            SELECT max(id) FROM history_changes WHERE table_id = 4 AND key1 = 4)
          """))
    let lastChangeSet = try #require(
      try database(around: "SELECT 1").connection.scalar(
        "SELECT max(id) FROM history_change_sets")?.integerValue)
    #expect(found.map(\.table) == ["alibis", "history_change_sets"])
    #expect(found.first?.message == "statement is 'In the nest.', the history says 'Elsewhere.'")
    #expect(found.last?.row == "id \(lastChangeSet)")
  }
}
