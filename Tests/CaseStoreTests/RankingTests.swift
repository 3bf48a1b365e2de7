import SQLiteKit
import Testing

@testable import CaseStore

@Suite("Ranking by suspicion level")
struct RankingTests {
  /// The seed with the Crow at 0.95 and the Fish at 0.5.
  private static func suspiciousSeed() throws -> CaseDatabase {
    let database = try seededDatabase()
    try database.suspects.setSuspicionLevel(
      id: try database.suspects.resolve("Crow"), try SuspicionLevel(parsing: "0.95"))
    try database.suspects.setSuspicionLevel(
      id: try database.suspects.resolve("Fish"), try SuspicionLevel(parsing: "0.5"))
    return database
  }

  /// Level descending, then name ignoring case and accents (Rénard sorts as "renard").
  static let expected = [
    "Catie", "Fabrizio", "Cornelius", "Ding", "Haku", "Maria", "Miko", "R\u{E9}nard", "Ricardo",
    "Soloman",
  ]

  @Test func ordersByLevelThenName() throws {
    let database = try Self.suspiciousSeed()
    let ranking = try SuspicionRanking(database: database).bySuspicionLevel(limit: nil)
    #expect(ranking.map(\.suspect.name) == Self.expected)
    #expect(ranking.map(\.rank) == Array(1...10))
    #expect(ranking[0].suspect.suspicionLevel.value == 0.95)
    #expect(ranking[0].suspect.suspicionLevel.label == .extremelySuspicious)
    #expect(ranking[1].suspect.suspicionLevel.value == 0.5)
    #expect(ranking[1].suspect.suspicionLevel.label == .verySuspicious)
    #expect(ranking[2...].allSatisfy { $0.suspect.suspicionLevel == .zero })
  }

  @Test func rowsCarryTheWholeSuspect() throws {
    let database = try Self.suspiciousSeed()
    try database.suspects.setAlibi(id: 4, "Busy stealing shiny things.")
    try database.suspects.setSleepSchedule(id: 4, .standard)
    let top = try #require(try SuspicionRanking(database: database).bySuspicionLevel().first)
    #expect(top.suspect == (try database.suspects.find("Crow")))
    #expect(
      top.suspect.favoriteFruits == [
        "Pink Pearl Apple", "Golden Nectar Plum", "Hauer Pippin Apple",
      ])
    #expect(top.suspect.alibi == "Busy stealing shiny things.")
    #expect(top.suspect.sleepSchedule == .standard)
    #expect(scalars(top.suspect.emoji) == ["U+1F426", "U+200D", "U+2B1B"])
  }

  @Test("limit", arguments: [(0, 0), (1, 1), (3, 3), (10, 10), (11, 10), (1_000, 10)])
  func limit(limit: Int, count: Int) throws {
    let database = try Self.suspiciousSeed()
    let ranking = try SuspicionRanking(database: database).bySuspicionLevel(limit: limit)
    #expect(ranking.map(\.suspect.name) == Array(Self.expected.prefix(count)))
  }

  @Test func defaultLimitIsTwenty() throws {
    let database = try Self.suspiciousSeed()
    for index in 1...15 {
      try database.suspects.add(
        NewSuspect(name: "Extra \(index)", species: "Extra species \(index)", pawSize: .small))
    }
    let ranking = SuspicionRanking(database: database)
    #expect(try ranking.bySuspicionLevel().count == 20)
    #expect(try ranking.bySuspicionLevel(limit: nil).count == 25)
  }

  @Test func tiesOnNameFallBackToSpecies() throws {
    let database = try seededDatabase()
    try database.suspects.add(NewSuspect(name: "ding", species: "Albatross", pawSize: .small))
    try database.suspects.add(NewSuspect(name: "D\u{CE}NG", species: "Zebra", pawSize: .small))
    let names = try SuspicionRanking(database: database).bySuspicionLevel(limit: nil)
      .map { "\($0.suspect.name)/\($0.suspect.species)" }
    #expect(
      names == [
        "Catie/Crow", "Cornelius/Duck", "ding/Albatross", "Ding/Dove", "D\u{CE}NG/Zebra",
        "Fabrizio/Fish", "Haku/Hedgehog", "Maria/Mouse", "Miko/Cat", "R\u{E9}nard/Raccoon",
        "Ricardo/Rabbit", "Soloman/Snail",
      ])
  }

  @Test func rowsWrittenByPlainSQLTakeTheirPlace() throws {
    let database = try Self.suspiciousSeed()
    try database.connection.execute(
      """
      INSERT INTO animals (name, species, paw_size) VALUES ('\u{C9}douard', 'Eel', 'small');
      INSERT INTO suspicion_levels (animal_id, level) VALUES (11, 0.5);
      """)
    func names() throws -> [String] {
      try SuspicionRanking(database: database).bySuspicionLevel(limit: 4).map(\.suspect.name)
    }
    // Reads never write: until inspector's next write the tie orders by SQL's key ('Édouard').
    #expect(try names() == ["Catie", "Fabrizio", "\u{C9}douard", "Cornelius"])
    try database.write {}
    #expect(try names() == ["Catie", "\u{C9}douard", "Fabrizio", "Cornelius"])
  }

  @Test func emptyDatabaseRanksNobody() throws {
    let database = try CaseDatabase()
    #expect(try SuspicionRanking(database: database).bySuspicionLevel(limit: nil).isEmpty)
  }
}
