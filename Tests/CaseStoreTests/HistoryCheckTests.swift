import SQLiteKit
import Testing

@testable import CaseStore

/// `check`'s history check read in the chain's pass (docs/history.md "Checking the history"):
/// the same findings as the passes that name rows, for a history that agrees and for each way
/// a write can go around the triggers.
@Suite struct HistoryCheckTests {
  /// The seed case with two edits of the crow (id 4) recorded, so that its alibi and level
  /// each have an earlier change, then `sql` run on the connection with no trigger in the way
  /// (another client, or a hand-edited history).
  private func database(around sql: String) throws -> CaseDatabase {
    let database = try seededDatabase()
    for (alibi, level) in [("Up a tree.", 0.2), ("In the nest.", 0.3)] {
      try database.write(ChangeAttribution(actor: "ann")) { db in
        try db.suspects.setAlibi(id: 4, alibi)
        try db.suspects.setSuspicionLevel(id: 4, SuspicionLevel(level)!)
      }
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
    let pass = try HistoryCheck.digestPass(database.connection)
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
    let pass = try HistoryCheck.digestPass(changed.connection)
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

  /// Writes around the history, each given to every way the pass finds the latest changes.
  static let writesAround = [
    "SELECT 1",
    "UPDATE suspicion_levels SET level = 0.99 WHERE animal_id = 4",
    "INSERT INTO alibis (animal_id, statement) VALUES (2, 'Under a leaf')",
    "DELETE FROM alibis WHERE animal_id = 4",
  ]

  /// Marking the latest changes first, taking the earlier ones back afterwards, and (when the
  /// rows met twice outgrow their list) a second read: the same tables disagree each way.
  @Test(arguments: writesAround)
  func everyWayToTheLatestChangesFindsTheSameTables(sql: String) throws {
    let database = try database(around: sql)
    let repeated = try database.connection.scalar(
      """
      SELECT count(*) FROM (SELECT 1 FROM history_changes GROUP BY table_id, key1, key2
        HAVING count(*) > 1)
      """)
    #expect(repeated?.integerValue ?? 0 >= 2)
    let ways = try [
      HistoryCheck.digestPass(database.connection, latestFirst: true),
      HistoryCheck.digestPass(database.connection, latestFirst: false),
      HistoryCheck.digestPass(database.connection, latestFirst: false, repeatedLimit: 0),
    ]
    let expected = sql == "SELECT 1" ? [] : [sql.contains("alibis") ? "alibis" : "suspicion_levels"]
    for pass in ways {
      #expect(pass.verdict.fault == nil)
      #expect(pass.disagreeing?.map(\.name) == expected)
    }
  }

  /// Folding every change and taking the earlier ones back leaves the digests that folding only
  /// the latest changes gives.
  @Test func takingEarlierChangesBackLeavesTheLatestChanges() throws {
    let database = try database(around: "SELECT 1")
    let connection = database.connection
    let range = try #require(try HistoryCheck.changeIDs(connection))
    let latest = try #require(try ChangeDigests(latestOf: connection, range))
    var all = ChangeDigests()
    var repeated = RepeatedRows(changes: Int(range.last - range.first))
    _ = try HistoryChain.verify(connection) { _, values in all.add(values, meeting: &repeated) }
    #expect(all != latest)
    #expect(!repeated.overflowed)
    let rows = repeated.takeRows()
    #expect(rows.contains(RepeatedRows.Row(table: 4, key1: 4, key2: nil)))
    #expect(rows.contains(RepeatedRows.Row(table: 6, key1: 4, key2: nil)))
    // Each row listed twice is taken back once.
    try all.removeEarlierChanges(of: rows + rows, connection)
    #expect(all == latest)
  }

  /// A history whose change sets were removed (and their seals with them): the chain's read
  /// reaches no change, so the digests do not decide, and the passes that name rows do.
  @Test func changesWithoutChangeSetsAreLeftToThePassesThatNameRows() throws {
    let database = try database(
      around: """
        DELETE FROM history_reverts; DELETE FROM history_seals;
        DELETE FROM history_change_sets; DELETE FROM alibis WHERE animal_id = 4;
        """)
    let pass = try HistoryCheck.digestPass(database.connection)
    #expect(pass.disagreeing == nil)
    let found = try findings(database)
    #expect(found.map(\.table).first == "alibis")
    #expect(found.map(\.message).first == "the history holds the row, the table does not")
  }

  /// Sampling tells a history of rows written once from one whose rows are changed again and
  /// again.
  @Test func repeatsAreCommonWhereRowsAreChangedAgainAndAgain() throws {
    let database = try seededDatabase()
    let connection = database.connection
    try connection.execute(
      """
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
      INSERT INTO animals (name, species, paw_size)
      SELECT 'Mole ' || i, 'Mole ' || i, 'small' FROM n
      """)
    let once = try #require(try HistoryCheck.changeIDs(connection))
    #expect(try !HistoryCheck.repeatsAreCommon(connection, once))
    for level in stride(from: 0.1, through: 0.5, by: 0.1) {
      try connection.execute(
        """
        INSERT INTO suspicion_levels (animal_id, level)
        SELECT id, \(level) FROM animals WHERE name LIKE 'Mole %'
        ON CONFLICT (animal_id) DO UPDATE SET level = excluded.level
        """)
    }
    let again = try #require(try HistoryCheck.changeIDs(connection))
    #expect(try HistoryCheck.repeatsAreCommon(connection, again))
    // The other client's change sets are not sealed yet (a note); the history agrees.
    #expect(try HistoryCheck.digestPass(connection).disagreeing?.isEmpty == true)
    #expect(try findings(database).map(\.severity) == [.note])
  }

  /// Change ids spread from below zero to past 2^62 (renumbered by hand; a change's id is not
  /// in its seal): the sample's arithmetic holds, there is no bitmap, and the filter decides.
  @Test func idsSpreadOverTheWholeRangeAreChecked() throws {
    let database = try database(
      around: """
        UPDATE history_changes SET id = -5000000000000000000
          WHERE id = (SELECT min(id) FROM history_changes);
        UPDATE history_changes SET id = 5000000000000000000
          WHERE id = (SELECT max(id) FROM history_changes);
        """)
    let range = try #require(try HistoryCheck.changeIDs(database.connection))
    #expect(range.first == -5_000_000_000_000_000_000 && range.last == 5_000_000_000_000_000_000)
    #expect(try !HistoryCheck.repeatsAreCommon(database.connection, range))
    #expect(try HistoryCheck.digestPass(database.connection).disagreeing?.isEmpty == true)
    #expect(try findings(database).isEmpty)
  }
}
