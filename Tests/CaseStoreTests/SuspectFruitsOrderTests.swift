import SQLiteKit
import Testing

@testable import CaseStore

/// The fruits order (``SuspectSort/fruits``): the seed suspects by their first favourite
/// fruit's name, then id, those without favourites last; listed with offsets and paged by
/// keyset in both directions across the boundary between the two parts.
struct SuspectFruitsOrderTests {
  /// The seed case and three suspects: a badger and an owl without favourites (the owl's only
  /// favourite is a fruit another client deleted with foreign keys off), and a newt whose first
  /// favourite is such a fruit, then the Golden Gem Apple.
  private func database() throws -> CaseDatabase {
    let database = try seededDatabase()
    try database.write(nil) { db in
      _ = try db.suspects.add(NewSuspect(name: "Pip", species: "Badger", pawSize: .medium))
      _ = try db.suspects.add(NewSuspect(name: "Quill", species: "Owl", pawSize: .small))
      _ = try db.suspects.add(
        NewSuspect(
          name: "Nell", species: "Newt", pawSize: .small, favoriteFruits: ["Golden Gem Apple"]))
    }
    let owl = try database.id(ofSpecies: "Owl")
    let newt = try database.id(ofSpecies: "Newt")
    try database.connection.execute("PRAGMA foreign_keys = OFF")
    try database.connection.execute(
      "INSERT INTO favorite_fruits (animal_id, fruit_id, position) VALUES (\(owl), 999, 0)")
    try database.connection.execute(
      "UPDATE favorite_fruits SET position = 5 WHERE animal_id = \(newt)")
    try database.connection.execute(
      "INSERT INTO favorite_fruits (animal_id, fruit_id, position) VALUES (\(newt), 998, 0)")
    try database.connection.execute("PRAGMA foreign_keys = ON")
    return database
  }

  /// The seed's order by first favourite: Belle De Boskoop Apple (cat 5, raccoon 10), Channel
  /// Island Oak Acorn, Christmas Berry, Elstar Apple, Golden Gem Apple (the newt), Green Gage
  /// Plum, Mariposa Plum, Pink Pearl Apple, Strawberry Tree (fish 1, mouse 8); then the badger
  /// and the owl without favourites, in id order.
  static let ascending = [
    "Cat", "Raccoon", "Dove", "Hedgehog", "Snail", "Newt", "Duck", "Rabbit", "Crow", "Fish",
    "Mouse", "Badger", "Owl",
  ]

  private func listed(_ database: CaseDatabase, _ filter: SuspectFilter) throws -> [String] {
    var result: [String] = []
    try database.read {
      try $0.suspects.forEachPage(matching: filter, size: 2) { result += $0.map(\.species) }
    }
    return result
  }

  private func fruits(reverse: Bool = false, limit: Int? = nil, offset: Int = 0) -> SuspectFilter {
    var filter = SuspectFilter()
    filter.sort = .fruits
    filter.reverse = reverse
    filter.limit = limit
    filter.offset = offset
    return filter
  }

  @Test func theListingIsInTheOrderOfTheFirstFavouriteFruit() throws {
    let database = try database()
    #expect(try listed(database, fruits()) == Self.ascending)
    #expect(try listed(database, fruits(reverse: true)) == Array(Self.ascending.reversed()))
    // The newt's favourites are listed as stored, the missing fruit first.
    let newt = try database.read { try $0.suspects.find("newt") }
    #expect(newt.favoriteFruits == ["(missing fruit id 998)", "Golden Gem Apple"])
  }

  @Test(arguments: [
    (false, 2, 10, ["Mouse", "Badger"]), (false, 5, 11, ["Badger", "Owl"]),
    (false, 5, 12, ["Owl"]), (false, 1, 13, []), (false, 3, 4, ["Snail", "Newt", "Duck"]),
    (true, 2, 1, ["Badger", "Mouse"]), (true, 5, 2, ["Mouse", "Fish", "Crow", "Rabbit", "Duck"]),
    (true, 2, 12, ["Cat"]), (true, 2, 0, ["Owl", "Badger"]),
  ])
  func limitAndOffsetCrossTheParts(reverse: Bool, limit: Int, offset: Int, want: [String])
    throws
  {
    let database = try database()
    #expect(try listed(database, fruits(reverse: reverse, limit: limit, offset: offset)) == want)
  }

  @Test func filtersCombineWithTheFruitsOrder() throws {
    let database = try database()
    var filter = fruits()
    filter.pawSize = .medium
    #expect(try listed(database, filter) == ["Raccoon", "Duck", "Badger"])
    filter.reverse = true
    filter.limit = 2
    #expect(try listed(database, filter) == ["Badger", "Duck"])
    filter = fruits(reverse: true)
    filter.favorite = "Golden Nectar Plum"
    #expect(try listed(database, filter) == ["Crow", "Duck"])
  }

  @Test(arguments: [false, true], [1, 2, 3, 5, 13])
  func keysetPagesWalkTheWholeOrder(reverse: Bool, size: Int) throws {
    let database = try database()
    var position: SuspectPosition?
    var walked: [String] = []
    var pages = 0
    repeat {
      let page = try database.read {
        try $0.suspects.page(matching: fruits(reverse: reverse, limit: size), after: position)
      }
      walked += page.suspects.map(\.species)
      position = page.next
      pages += 1
    } while position != nil && pages < 20
    #expect(walked == (reverse ? Array(Self.ascending.reversed()) : Self.ascending))
  }

  @Test func aPositionHoldsTheFirstFruitOrNoneWithoutFavourites() throws {
    let database = try database()
    let first = try database.read { try $0.suspects.page(matching: fruits(limit: 6), after: nil) }
    let newt = try database.id(ofSpecies: "Newt")
    let gem = try database.read { try $0.fruits.find("Golden Gem Apple").id }
    #expect(
      first.next
        == SuspectPosition(
          sort: .fruits, reverse: false, level: 0, nameKey: "nell", speciesKey: "newt", id: newt,
          fruitKey: "golden gem apple", fruitID: gem))
    let last = try database.read {
      try $0.suspects.page(matching: fruits(reverse: true, limit: 1), after: nil)
    }
    #expect(last.suspects.map(\.species) == ["Owl"])
    #expect(last.next?.fruitID == nil && last.next?.fruitKey == nil)
    #expect(last.next?.id == (try database.id(ofSpecies: "Owl")))
  }

  /// Each query of the order's pages walks indexes in order: none sorts.
  @Test func noPageSorts() throws {
    let database = try database()
    let gem = try database.read { try $0.fruits.find("Golden Gem Apple").id }
    for reverse in [false, true] {
      let filter = fruits(reverse: reverse, limit: 50)
      let positions: [SuspectPosition?] = [
        nil,
        SuspectPosition(
          sort: .fruits, reverse: reverse, level: 0, nameKey: "nell", speciesKey: "newt",
          id: 13, fruitKey: "golden gem apple", fruitID: gem),
        SuspectPosition(
          sort: .fruits, reverse: reverse, level: 0, nameKey: "pip", speciesKey: "badger", id: 11),
      ]
      for position in positions {
        let arms =
          position.map { SuspectRepository<Reading>.keysetArms(after: $0) }
          ?? SuspectRepository<Reading>.firstArms(of: filter)
        for arm in arms {
          let query = SuspectRepository<Reading>.listingQuery(
            filter, favoriteFruitID: nil, keyset: true, after: arm.condition, part: arm.part)
          let plan = try database.rows("EXPLAIN QUERY PLAN " + query.sql, query.parameters)
            .map { $0[3].textValue ?? "" }.joined(separator: "\n")
          #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
          if arm.part == .favourites {
            #expect(plan.contains("favorite_fruits_fruit"), "\(plan)")
          }
          if arm.condition?.sql.hasPrefix("fr.id = ?") == true {
            #expect(plan.contains("(fruit_id=? AND animal_id"), "\(plan)")
          }
        }
      }
    }
  }
}
