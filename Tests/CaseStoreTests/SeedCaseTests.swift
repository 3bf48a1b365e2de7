import SQLiteKit
import Testing

@testable import CaseStore

@Suite("Seed case")
struct SeedCaseTests {
  /// README "The documented schema", in the order listed.
  static let fruits: [(String, String)] = [
    ("Golden Gem Apple", "yellow"), ("Flavor King Plum", "purple"), ("Mariposa Plum", "red"),
    ("Tompkins King Apple", "yellow"), ("Green Gage Plum", "green"),
    ("Lapins Sweet Cherry", "purple"), ("Hauer Pippin Apple", "red"),
    ("Belle De Boskoop Apple", "red"), ("Elstar Apple", "yellow"),
    ("Golden Delicious Apple", "yellow"), ("Creeping Snowberry", "white"),
    ("Channel Island Oak Acorn", "brown"), ("Elephant Heart Plum", "red"),
    ("Golden Nectar Plum", "yellow"), ("Pink Pearl Apple", "pink"), ("Christmas Berry", "red"),
    ("Kaki Fuyu Persimmon", "orange"), ("Big Berry Manzanita", "red"),
    ("Strawberry Tree", "red"),
  ]

  /// README "The documented schema": (name, species, paw, emoji scalars, favourites in order).
  static let suspects: [(String, String, PawSize, [String], [String])] = [
    (
      "Fabrizio", "Fish", .small, ["U+1F41F"],
      ["Strawberry Tree", "Big Berry Manzanita", "Elstar Apple"]
    ),
    ("Soloman", "Snail", .small, ["U+1F40C"], ["Elstar Apple", "Flavor King Plum"]),
    (
      "Ding", "Dove", .small, ["U+1F54A", "U+FE0F"],
      ["Channel Island Oak Acorn", "Pink Pearl Apple", "Lapins Sweet Cherry"]
    ),
    (
      "Catie", "Crow", .small, ["U+1F426", "U+200D", "U+2B1B"],
      ["Pink Pearl Apple", "Golden Nectar Plum", "Hauer Pippin Apple"]
    ),
    (
      "Miko", "Cat", .small, ["U+1F408"],
      ["Belle De Boskoop Apple", "Tompkins King Apple", "Lapins Sweet Cherry"]
    ),
    ("Ricardo", "Rabbit", .small, ["U+1F430"], ["Mariposa Plum", "Elephant Heart Plum"]),
    ("Cornelius", "Duck", .medium, ["U+1F986"], ["Green Gage Plum", "Golden Nectar Plum"]),
    ("Maria", "Mouse", .small, ["U+1F439"], ["Strawberry Tree", "Elephant Heart Plum"]),
    (
      "Haku", "Hedgehog", .small, ["U+1F994"],
      ["Christmas Berry", "Creeping Snowberry", "Golden Gem Apple"]
    ),
    (
      "R\u{E9}nard", "Raccoon", .medium, ["U+1F99D"],
      ["Belle De Boskoop Apple", "Big Berry Manzanita", "Christmas Berry", "Kaki Fuyu Persimmon"]
    ),
  ]

  @Test func fruitsReadBackInOrderWithTheirColours() throws {
    let database = try seededDatabase()
    let fruits = try database.read { try $0.fruits.all() }
    #expect(fruits.count == 19)
    #expect(fruits.map(\.name) == Self.fruits.map(\.0))
    #expect(fruits.map(\.color) == Self.fruits.map(\.1))
    #expect(fruits.map(\.id) == Array(1...19))
  }

  @Test func suspectsReadBackExactly() throws {
    let database = try seededDatabase()
    let suspects = try database.read { try $0.suspects.all() }
    #expect(suspects.count == 10)
    #expect(suspects.map(\.id) == Array(1...10))
    for (suspect, expected) in zip(suspects, Self.suspects) {
      #expect(suspect.name == expected.0)
      #expect(suspect.species == expected.1)
      #expect(suspect.pawSize == expected.2)
      #expect(scalars(suspect.emoji) == expected.3, "emoji of \(expected.0)")
      #expect(suspect.favoriteFruits == expected.4, "favourites of \(expected.0)")
    }
  }

  @Test func emojiAndAccentsAreTheExactScalars() throws {
    let database = try seededDatabase()
    let crow = try database.read { try $0.suspects.find("Crow") }
    #expect(Array(crow.emoji!.unicodeScalars.map(\.value)) == [0x1F426, 0x200D, 0x2B1B])
    #expect(
      Array(crow.emoji!.utf8) == [
        0xF0, 0x9F, 0x90, 0xA6, 0xE2, 0x80, 0x8D, 0xE2, 0xAC, 0x9B,
      ])
    let dove = try database.read { try $0.suspects.find("Dove") }
    #expect(Array(dove.emoji!.unicodeScalars.map(\.value)) == [0x1F54A, 0xFE0F])
    let raccoon = try database.read { try $0.suspects.find("Raccoon") }
    #expect(
      Array(raccoon.name.unicodeScalars.map(\.value)) == [0x52, 0xE9, 0x6E, 0x61, 0x72, 0x64])
    // The bytes in the file, as the sqlite3 shell sees them.
    #expect(
      try database.connection.scalar("SELECT hex(name) FROM animals WHERE species = 'Raccoon'")
        == .text("52C3A96E617264"))
    #expect(
      try database.connection.scalar("SELECT hex(emoji) FROM animals WHERE species = 'Crow'")
        == .text("F09F90A6E2808DE2AC9B"))
  }

  @Test func everyInterviewIsAtItsDefaults() throws {
    let database = try seededDatabase()
    for suspect in try database.read({ try $0.suspects.all() }) {
      #expect(suspect.alibi == "")
      #expect(suspect.hasNoAlibi)
      #expect(suspect.sleepSchedule == nil)
      #expect(suspect.suspicionLevel == .zero)
      #expect(suspect.suspicionLevel.label == .unlikely)
    }
    try expectRowCounts(
      ["alibis": 0, "sleep_schedules": 0, "suspicion_levels": 0, "favorite_fruits": 27],
      in: database)
  }

  @Test func theSeedBulletinIsStored() throws {
    let database = try seededDatabase()
    #expect(
      try database.rows(
        """
        SELECT i.id, f.name, i.occurred_at, i.paw_size, i.latitude, i.longitude
        FROM incidents i JOIN fruits f ON f.id = i.fruit_id
        """) == [[1, "Pink Pearl Apple", "2024-05-17T09:41", "large", 37.334371, -122.009558]])
    let notes = try #require(try database.connection.scalar("SELECT notes FROM incidents"))
    #expect(notes.textValue?.contains("seeds") == true)
  }

  @Test func seedingTwiceThrowsAndChangesNothing() throws {
    let database = try seededDatabase()
    let before = try database.read { try $0.suspects.all() }
    let fruitsBefore = try database.read { try $0.fruits.all() }
    #expect(throws: CaseError.alreadySeeded(suspects: 10)) {
      try database.write(nil) { try SeedCase.load(into: $0) }
    }
    #expect(try database.read { try $0.suspects.all() } == before)
    #expect(try database.read { try $0.fruits.all() } == fruitsBefore)
    try expectRowCounts(["favorite_fruits": 27, "incidents": 1], in: database)
    #expect(database.connection.isAutocommit)
  }

  @Test func seedingRefusesOverAnySuspect() throws {
    let database = try CaseDatabase()
    try database.connection.execute(
      "INSERT INTO animals (name, species, paw_size) VALUES ('Zo\u{EB}', '\u{C9}lan', 'small')")
    #expect(throws: CaseError.alreadySeeded(suspects: 1)) {
      try database.write(nil) { try SeedCase.load(into: $0) }
    }
    try expectRowCounts(["fruits": 0, "incidents": 0, "animals": 1], in: database)
  }

  @Test func seedingKeepsAFruitThatAlreadyExists() throws {
    let database = try CaseDatabase()
    try database.write(nil) { try $0.fruits.add(name: "pink pearl apple", color: "#FFC0CB") }
    try database.write(nil) { try SeedCase.load(into: $0, on: seedDay) }
    #expect(try database.rowCount("fruits") == 19)
    let pink = try database.read { try $0.fruits.find("Pink Pearl Apple") }
    #expect(pink.name == "pink pearl apple")
    #expect(pink.color == "#FFC0CB")
    #expect(
      try database.read { try $0.suspects.find("Crow").favoriteFruits } == [
        "pink pearl apple", "Golden Nectar Plum", "Hauer Pippin Apple",
      ])
  }

  @Test func seedValuesMatchTheStoredOnes() throws {
    let database = try seededDatabase()
    #expect(SeedCase.fruits.count == 19)
    #expect(SeedCase.suspects.count == 10)
    #expect(
      try database.read { try $0.suspects.all().map(\.name) } == SeedCase.suspects.map(\.name))
  }
}
