import SQLiteKit
import Testing

@testable import CaseStore

@Suite("Favourite fruits")
struct FavoriteTests {
  @Test func addAppendsAfterTheLast() throws {
    let database = try seededDatabase()
    let snail = try database.id(ofSpecies: "Snail")
    try database.suspects.addFavorite(id: snail, fruit: "kaki fuyu persimmon")
    try database.suspects.addFavorite(id: snail, fruit: "GOLDEN GEM APPLE")
    #expect(
      try database.suspects.find("Snail").favoriteFruits == [
        "Elstar Apple", "Flavor King Plum", "Kaki Fuyu Persimmon", "Golden Gem Apple",
      ])
    // The suspect listing agrees with the single read.
    let listed = try database.suspects.all().first { $0.id == snail }
    let single = try database.suspects.find("Snail")
    #expect(listed?.favoriteFruits == single.favoriteFruits)
  }

  @Test func addingOneAlreadyThereFails() throws {
    let database = try seededDatabase()
    let dove = try database.id(ofSpecies: "Dove")
    #expect(throws: CaseError.alreadyFavorite(suspect: "Ding", fruit: "Pink Pearl Apple")) {
      try database.suspects.addFavorite(id: dove, fruit: "pink PEARL apple")
    }
    #expect(
      try database.suspects.find("Dove").favoriteFruits == [
        "Channel Island Oak Acorn", "Pink Pearl Apple", "Lapins Sweet Cherry",
      ])
  }

  @Test func removingOneNotThereFails() throws {
    let database = try seededDatabase()
    let dove = try database.id(ofSpecies: "Dove")
    #expect(throws: CaseError.notFavorite(suspect: "Ding", fruit: "Elstar Apple")) {
      try database.suspects.removeFavorite(id: dove, fruit: "elstar apple")
    }
    #expect(try database.rowCount("favorite_fruits") == 27)
  }

  @Test func removingTheMiddleKeepsTheOthersInOrder() throws {
    let database = try seededDatabase()
    let raccoon = try database.id(ofSpecies: "Raccoon")
    try database.suspects.removeFavorite(id: raccoon, fruit: "Big Berry Manzanita")
    #expect(
      try database.suspects.find("Raccoon").favoriteFruits == [
        "Belle De Boskoop Apple", "Christmas Berry", "Kaki Fuyu Persimmon",
      ])
    try database.suspects.addFavorite(id: raccoon, fruit: "Big Berry Manzanita")
    #expect(
      try database.suspects.find("Raccoon").favoriteFruits == [
        "Belle De Boskoop Apple", "Christmas Berry", "Kaki Fuyu Persimmon", "Big Berry Manzanita",
      ])
    try database.suspects.removeFavorite(id: raccoon, fruit: "Belle De Boskoop Apple")
    try database.suspects.addFavorite(id: raccoon, fruit: "Belle De Boskoop Apple")
    #expect(
      try database.suspects.find("Raccoon").favoriteFruits == [
        "Christmas Berry", "Kaki Fuyu Persimmon", "Big Berry Manzanita", "Belle De Boskoop Apple",
      ])
  }

  @Test func removingEveryFavoriteThenAddingStartsAgain() throws {
    let database = try seededDatabase()
    let rabbit = try database.id(ofSpecies: "Rabbit")
    try database.suspects.removeFavorite(id: rabbit, fruit: "Mariposa Plum")
    try database.suspects.removeFavorite(id: rabbit, fruit: "Elephant Heart Plum")
    #expect(try database.suspects.find("Rabbit").favoriteFruits.isEmpty)
    try database.suspects.addFavorite(id: rabbit, fruit: "Elstar Apple")
    #expect(try database.suspects.find("Rabbit").favoriteFruits == ["Elstar Apple"])
  }

  @Test func unknownFruitOrSuspect() throws {
    let database = try seededDatabase()
    #expect(throws: CaseError.unknownFruit("Durian")) {
      try database.suspects.addFavorite(id: 1, fruit: "Durian")
    }
    #expect(throws: CaseError.unknownFruit("Durian")) {
      try database.suspects.removeFavorite(id: 1, fruit: "Durian")
    }
    #expect(throws: CaseError.unknownSuspect("99")) {
      try database.suspects.addFavorite(id: 99, fruit: "Elstar Apple")
    }
    #expect(throws: CaseError.unknownSuspect("99")) {
      try database.suspects.removeFavorite(id: 99, fruit: "Elstar Apple")
    }
    #expect(try database.rowCount("favorite_fruits") == 27)
  }

  @Test func orderFollowsPositionNotInsertion() throws {
    // Rows written by the sqlite3 shell: positions out of insertion order, with gaps.
    let database = try seededDatabase()
    try database.connection.execute(
      """
      INSERT INTO animals (name, species, paw_size) VALUES ('Zed', 'Zebra', 'large');
      INSERT INTO favorite_fruits (animal_id, fruit_id, position) VALUES (11, 3, 7), (11, 1, 2),
        (11, 19, 40);
      """)
    #expect(
      try database.suspects.find("Zebra").favoriteFruits == [
        "Golden Gem Apple", "Mariposa Plum", "Strawberry Tree",
      ])
    try database.suspects.addFavorite(id: 11, fruit: "Elstar Apple")
    #expect(
      try database.suspects.find("zebra").favoriteFruits.last == "Elstar Apple")
    #expect(
      try database.rows(
        "SELECT position FROM favorite_fruits WHERE animal_id = 11 AND fruit_id = 9") == [[41]])
  }
}
