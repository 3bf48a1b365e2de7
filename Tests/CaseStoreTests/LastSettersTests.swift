import SQLiteKit
import Testing

@testable import CaseStore

/// The history's look-up "the change set that last set column c of row r"
/// (`CaseHistory.lastSetters(of:key:)`, docs/history.md "Blame"): an insert and a delete set
/// every column, an update the columns it changed, a row moved onto a key arrives whole.
/// These pin its contract for any storage of the history.
@Suite("Last setters of a row")
struct LastSettersTests {
  /// Column name to the id of the change set that last set it.
  func setters(
    _ database: CaseDatabase, _ table: String, _ key: [String: SQLiteValue]
  ) throws -> [String: Int64] {
    let recorded = try #require(RecordedTable.named(table))
    return try database.read { try $0.history.lastSetters(of: recorded, key: key) }
      .mapValues(\.id)
  }

  /// The id of the newest change set.
  func latest(_ database: CaseDatabase) throws -> Int64 {
    try #require(
      try database.connection.scalar("SELECT max(id) FROM history_change_sets")?.integerValue)
  }

  @Test func theSeedSetsEveryColumnAndAnUpdateOnlyWhatItChanged() throws {
    let database = try seededDatabase()
    let fruit: [String: SQLiteValue] = ["id": 15]  // Pink Pearl Apple
    #expect(try setters(database, "fruits", fruit) == ["id": 1, "name": 1, "color": 1])
    let ann = try ChangeAttribution(actor: "ann", note: "repainted")
    try database.write(ann) { _ = try $0.fruits.edit("Pink Pearl Apple", FruitEdit(color: "red")) }
    let edit = try latest(database)
    #expect(edit == 2)
    #expect(try setters(database, "fruits", fruit) == ["id": 1, "name": 1, "color": edit])
    let set = try database.read { db in
      try db.history.lastSetters(of: try #require(RecordedTable.named("fruits")), key: fruit)
    }
    #expect(set["color"]?.actor == "ann")
    #expect(set["color"]?.note == "repainted")
    #expect(set["name"]?.actor == nil)
    // An update that changes no recorded column records nothing, so sets nothing.
    try database.write(ann) { try $0.connection.execute("UPDATE fruits SET color = color") }
    #expect(try setters(database, "fruits", fruit) == ["id": 1, "name": 1, "color": edit])
  }

  @Test func aDeleteSetsEveryColumnAndANewInsertSetsThemAgain() throws {
    let database = try seededDatabase()
    let key: [String: SQLiteValue] = ["animal_id": 4]
    #expect(try setters(database, "suspicion_levels", key) == [:])
    try database.write(nil) { try $0.suspects.setSuspicionLevel(id: 4, SuspicionLevel(0.5)!) }
    let set = try latest(database)
    #expect(try setters(database, "suspicion_levels", key) == ["animal_id": set, "level": set])
    try database.write(nil) { try $0.connection.execute("DELETE FROM suspicion_levels") }
    let removed = try latest(database)
    #expect(
      try setters(database, "suspicion_levels", key) == ["animal_id": removed, "level": removed])
    try database.write(nil) { try $0.suspects.setSuspicionLevel(id: 4, SuspicionLevel(0.7)!) }
    let again = try latest(database)
    #expect(try setters(database, "suspicion_levels", key) == ["animal_id": again, "level": again])
  }

  @Test func aReplaceOverALiveRowSetsOnlyTheColumnsThatDiffer() throws {
    let database = try seededDatabase()
    let key: [String: SQLiteValue] = ["animal_id": 4]
    try database.write(nil) { try $0.suspects.setAlibi(id: 4, "In the nest.") }
    let first = try latest(database)
    try database.write(nil) {
      try $0.connection.execute(
        "INSERT OR REPLACE INTO alibis (animal_id, statement) VALUES (4, 'In the barn.')")
    }
    let replaced = try latest(database)
    #expect(try setters(database, "alibis", key) == ["animal_id": first, "statement": replaced])
  }

  @Test func aRowMovedOntoAKeyArrivesWhole() throws {
    let database = try seededDatabase()
    // Another client moves Catie's favourite Pink Pearl Apple (15) to Strawberry Tree (19).
    try database.write(nil) {
      try $0.connection.execute(
        "UPDATE favorite_fruits SET fruit_id = 19 WHERE animal_id = 4 AND fruit_id = 15")
    }
    let moved = try latest(database)
    #expect(
      try setters(database, "favorite_fruits", ["animal_id": 4, "fruit_id": 19])
        == ["animal_id": moved, "fruit_id": moved, "position": moved])
    // A row the history never held has no setter.
    #expect(try setters(database, "favorite_fruits", ["animal_id": 4, "fruit_id": 1]) == [:])
  }
}
