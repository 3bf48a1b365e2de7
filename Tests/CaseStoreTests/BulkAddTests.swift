import SQLiteKit
import Testing

@testable import CaseStore

/// `SuspectRepository.add(contentsOf:)`: the bulk form of `add(_:)` stores the same rows.
@Suite("SuspectRepository: bulk add")
struct BulkAddTests {
  /// A case file holding only the seed fruits.
  func fruitsOnly() throws -> CaseDatabase {
    let database = try CaseDatabase()
    for fruit in SeedCase.fruits { try database.fruits.add(name: fruit.name, color: fruit.color) }
    return database
  }

  /// Every stored column of the suspect tables, keys and positions included.
  func storedRows(_ database: CaseDatabase) throws -> [[SQLiteValue]] {
    try database.rows(
      """
      SELECT id, name, species, paw_size, emoji, species_key, species_folded_from, name_key,
        name_folded_from, suspicion_level FROM animals ORDER BY id
      """)
      + database.rows(
        "SELECT animal_id, fruit_id, position FROM favorite_fruits ORDER BY animal_id, fruit_id")
  }

  @Test func bulkAddStoresWhatSingleAddsStore() throws {
    // Untrimmed names, mixed-case fruit names, accents and a decomposed é: every path of add.
    let suspects =
      SeedCase.suspects + [
        NewSuspect(
          name: "  Zoe\u{308}  ", species: " \u{C9}cureuil ", pawSize: .medium, emoji: " ",
          favoriteFruits: ["pink pearl apple", "ELSTAR APPLE", " Strawberry Tree "])
      ]
    let single = try fruitsOnly()
    for suspect in suspects { try single.suspects.add(suspect) }
    let bulk = try fruitsOnly()
    let ids = try bulk.suspects.add(contentsOf: suspects)
    #expect(ids == Array(1...11))
    #expect(try storedRows(bulk) == storedRows(single))
    #expect(try bulk.suspects.all() == single.suspects.all())
    #expect(try bulk.suspects.find("raccoon").name == "R\u{E9}nard")
    #expect(try bulk.suspects.find("\u{E9}cureuil").favoriteFruits.first == "Pink Pearl Apple")
  }

  @Test func bulkAddOfNothingStoresNothing() throws {
    let database = try fruitsOnly()
    #expect(try database.suspects.add(contentsOf: []) == [])
    #expect(try database.suspects.count() == 0)
  }

  @Test(arguments: [
    (
      [
        NewSuspect(name: "Catie", species: "Crow", pawSize: .small),
        NewSuspect(name: "Corvin", species: "CROW", pawSize: .large),
      ], CaseError.duplicateSpecies("CROW")
    ),
    (
      [
        NewSuspect(name: "Catie", species: "Crow", pawSize: .small),
        NewSuspect(name: "Fox", species: "Fox", pawSize: .small, favoriteFruits: ["Durian"]),
      ], CaseError.unknownFruit("Durian")
    ),
    (
      [
        NewSuspect(name: "Catie", species: "Crow", pawSize: .small),
        NewSuspect(
          name: "Fox", species: "Fox", pawSize: .small,
          favoriteFruits: ["Elstar Apple", "elstar apple"]),
      ], CaseError.alreadyFavorite(suspect: "Fox", fruit: "Elstar Apple")
    ),
    (
      [
        NewSuspect(name: "Catie", species: "Crow", pawSize: .small),
        NewSuspect(name: "  ", species: "Fox", pawSize: .small),
      ], CaseError.invalidValue(field: "name", value: "  ", expected: "a non-blank name")
    ),
  ])
  func aFailingSuspectStoresNoneOfTheBatch(suspects: [NewSuspect], error: CaseError) throws {
    let database = try fruitsOnly()
    #expect(throws: error) { try database.suspects.add(contentsOf: suspects) }
    #expect(try database.suspects.count() == 0)
    #expect(try database.rowCount("favorite_fruits") == 0)
  }

  @Test func aSpeciesAlreadyStoredIsRefused() throws {
    let database = try seededDatabase()
    #expect(throws: CaseError.duplicateSpecies("raccoon")) {
      try database.suspects.add(
        contentsOf: [
          NewSuspect(name: "Ann", species: "Ant", pawSize: .small),
          NewSuspect(name: "Rex", species: "raccoon", pawSize: .large),
        ])
    }
    #expect(try database.suspects.count() == 10)
  }
}
