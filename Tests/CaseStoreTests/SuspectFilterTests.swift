import SQLiteKit
import Testing

@testable import CaseStore

/// `SuspectRepository.forEachPage(matching:)`: the filters, orders and slices of `list`, and the
/// indexes that serve them.
struct SuspectFilterTests {
  /// The species the filter lists, in order.
  private func species(_ database: CaseDatabase, _ filter: SuspectFilter) throws -> [String] {
    var result: [String] = []
    try database.read {
      try $0.suspects.forEachPage(matching: filter, size: 3) { result += $0.map(\.species) }
    }
    return result
  }

  /// The query plan of the listing query for `filter`, one detail a line.
  private func plan(_ database: CaseDatabase, _ filter: SuspectFilter) throws -> String {
    let fruitID = try filter.favorite.map { name in
      try database.read { try $0.fruits.find(name).id }
    }
    let query = SuspectRepository<Reading>.listingQuery(filter, favoriteFruitID: fruitID)
    return try database.rows("EXPLAIN QUERY PLAN " + query.sql, query.parameters)
      .map { $0[3].textValue ?? "" }.joined(separator: "\n")
  }

  @Test func filtersSelectTheSeedSuspects() throws {
    let database = try seededDatabase()
    try database.write(nil) { db in
      let suspects = db.suspects
      try suspects.setSuspicionLevel(id: try database.id(ofSpecies: "Crow"), SuspicionLevel(0.95)!)
      try suspects.setSuspicionLevel(id: try database.id(ofSpecies: "Fish"), SuspicionLevel(0.4)!)
      try suspects.setAlibi(id: try database.id(ofSpecies: "Snail"), "Under a leaf")
      try suspects.setSleepSchedule(
        id: try database.id(ofSpecies: "Dove"),
        SleepSchedule(
          sleep: ClockTime(hour: 22, minute: 0)!, wake: ClockTime(hour: 6, minute: 0)!))
    }
    var filter = SuspectFilter()
    filter.pawSize = .medium
    #expect(try species(database, filter) == ["Duck", "Raccoon"])
    filter = SuspectFilter()
    filter.species = " CROW "
    #expect(try species(database, filter) == ["Crow"])
    filter = SuspectFilter()
    filter.favorite = "elstar apple"
    #expect(try species(database, filter) == ["Fish", "Snail"])
    filter.noAlibi = true
    #expect(try species(database, filter) == ["Fish"])
    filter = SuspectFilter()
    filter.minLevel = SuspicionLevel(0.4)
    #expect(try species(database, filter) == ["Fish", "Crow"])
    filter.maxLevel = SuspicionLevel(0.5)
    #expect(try species(database, filter) == ["Fish"])
    filter = SuspectFilter()
    filter.awakeAt = ClockTime(hour: 23, minute: 30)
    #expect(try !species(database, filter).contains("Dove"))
    #expect(try species(database, filter).count == 9)
    filter.awakeAt = ClockTime(hour: 6, minute: 0)
    #expect(try species(database, filter).contains("Dove"))
    filter = SuspectFilter()
    filter.sort = .level
    filter.limit = 3
    #expect(try species(database, filter) == ["Crow", "Fish", "Duck"])
    filter.reverse = true
    #expect(try species(database, filter) == ["Snail", "Rabbit", "Raccoon"])
    filter = SuspectFilter()
    filter.sort = .name
    filter.offset = 8
    #expect(try species(database, filter) == ["Rabbit", "Snail"])
    filter.reverse = true
    filter.offset = 0
    filter.limit = 2
    #expect(try species(database, filter) == ["Snail", "Rabbit"])
    filter = SuspectFilter()
    filter.sort = .species
    filter.limit = 2
    #expect(try species(database, filter) == ["Cat", "Crow"])
  }

  @Test(arguments: [
    ("paw", "animals_paw_size"), ("species", "sqlite_autoindex_animals"),
    ("favorite", "favorite_fruits_fruit"), ("noAlibi", "alibis_stated"),
    ("minLevel", "animals_rank_order"), ("sortLevel", "animals_rank_order"),
    ("sortName", "animals_name_key"), ("sortSpecies", "sqlite_autoindex_animals"),
    ("sortFruits", "favorite_fruits_fruit"),
  ])
  func indexesServeTheFilters(filterName: String, index: String) throws {
    let database = try seededDatabase()
    var filter = SuspectFilter()
    switch filterName {
    case "paw": filter.pawSize = .large
    case "species": filter.species = "Crow"
    case "favorite": filter.favorite = "Elstar Apple"
    case "noAlibi": filter.noAlibi = true
    case "minLevel":
      // With the level order the level range and the order are one walk of the rank index.
      filter.minLevel = SuspicionLevel(0.5)
      filter.sort = .level
    case "sortLevel": filter.sort = .level
    case "sortName": filter.sort = .name
    case "sortFruits": filter.sort = .fruits
    default: filter.sort = .species
    }
    let plan = try plan(database, filter)
    #expect(plan.contains(index), "\(filterName): \(plan)")
    #expect(!plan.contains("SCAN a\n") || filterName == "noAlibi", "\(filterName): \(plan)")
    if filterName.hasPrefix("sort") || filterName == "minLevel" {
      #expect(!plan.contains("TEMP B-TREE"), "\(filterName): \(plan)")
    }
  }
}
