import SQLiteKit
import Testing

@testable import CaseStore

@Suite("Moving a favourite fruit")
struct FavoriteMoveTests {
  static let raccoonFavorites = [
    "Belle De Boskoop Apple", "Big Berry Manzanita", "Christmas Berry", "Kaki Fuyu Persimmon",
  ]

  @Test(
    "moves one fruit, the others keep their order",
    arguments: [
      ("Kaki Fuyu Persimmon", 1, 1, [3, 0, 1, 2]),
      ("kaki fuyu persimmon", 2, 2, [0, 3, 1, 2]),
      ("Belle De Boskoop Apple", 3, 3, [1, 2, 0, 3]),
      ("Belle De Boskoop Apple", 4, 4, [1, 2, 3, 0]),
      ("BELLE DE BOSKOOP APPLE", 5, 4, [1, 2, 3, 0]),
      ("Big Berry Manzanita", 9_223_372_036_854_775_807, 4, [0, 2, 3, 1]),
      ("Christmas Berry", 3, 3, [0, 1, 2, 3]),
    ])
  func moves(fruit: String, to position: Int, landsAt: Int, order: [Int]) throws {
    let database = try seededDatabase()
    let raccoon = try database.id(ofSpecies: "Raccoon")
    let crowBefore = try database.read { try $0.suspects.find("Crow").favoriteFruits }
    #expect(
      try database.write(nil) {
        try $0.suspects.moveFavorite(id: raccoon, fruit: fruit, to: position)
      } == landsAt)
    #expect(
      try database.read { try $0.suspects.find("Raccoon").favoriteFruits }
        == order.map { Self.raccoonFavorites[$0] })
    // Positions are renumbered from 0, and the listing agrees with the single read.
    #expect(
      try database.rows(
        "SELECT position FROM favorite_fruits WHERE animal_id = ? ORDER BY position", [raccoon])
        == [[0], [1], [2], [3]])
    #expect(
      try database.read { try $0.suspects.all().first { $0.id == raccoon }?.favoriteFruits }
        == order.map { Self.raccoonFavorites[$0] })
    #expect(try database.read { try $0.suspects.find("Crow").favoriteFruits } == crowBefore)
  }

  @Test func gapsAndTiesLeftByOtherClientsAreRenumbered() throws {
    let database = try seededDatabase()
    try database.connection.execute(
      """
      INSERT INTO animals (name, species, paw_size) VALUES ('Zed', 'Zebra', 'large');
      INSERT INTO favorite_fruits (animal_id, fruit_id, position) VALUES (11, 3, 7), (11, 1, 7),
        (11, 19, 40), (11, 9, 2);
      """)
    #expect(
      try database.read { try $0.suspects.find("Zebra").favoriteFruits } == [
        "Elstar Apple", "Golden Gem Apple", "Mariposa Plum", "Strawberry Tree",
      ])
    try database.write(nil) {
      try $0.suspects.moveFavorite(id: 11, fruit: "Strawberry Tree", to: 2)
    }
    #expect(
      try database.read { try $0.suspects.find("Zebra").favoriteFruits } == [
        "Elstar Apple", "Strawberry Tree", "Golden Gem Apple", "Mariposa Plum",
      ])
    #expect(
      try database.rows(
        "SELECT fruit_id, position FROM favorite_fruits WHERE animal_id = 11 ORDER BY position")
        == [[9, 0], [19, 1], [1, 2], [3, 3]])
  }

  @Test func refusalsChangeNothing() throws {
    let database = try seededDatabase()
    let raccoon = try database.id(ofSpecies: "Raccoon")
    let before = try database.rows(
      "SELECT animal_id, fruit_id, position FROM favorite_fruits ORDER BY animal_id, fruit_id")
    for position in [0, -1, Int.min] {
      expectInvalidValue(
        field: "position", value: "\(position)", expected: "a whole number, 1 or more"
      ) {
        try database.write(nil) {
          try $0.suspects.moveFavorite(id: raccoon, fruit: "Christmas Berry", to: position)
        }
      }
    }
    #expect(throws: CaseError.notFavorite(suspect: "Rénard", fruit: "Elstar Apple")) {
      try database.write(nil) {
        try $0.suspects.moveFavorite(id: raccoon, fruit: "elstar apple", to: 1)
      }
    }
    #expect(throws: CaseError.unknownFruit("Durian")) {
      try database.write(nil) { try $0.suspects.moveFavorite(id: raccoon, fruit: "Durian", to: 1) }
    }
    #expect(throws: CaseError.unknownSuspect("99")) {
      try database.write(nil) {
        try $0.suspects.moveFavorite(id: 99, fruit: "Christmas Berry", to: 1)
      }
    }
    #expect(
      try database.rows(
        "SELECT animal_id, fruit_id, position FROM favorite_fruits ORDER BY animal_id, fruit_id")
        == before)
  }
}
