import SQLiteKit
import Testing

@testable import CaseStore

/// The clue ranking of README "The ranking", on the seed case and against a brute-force model.
@Suite struct ClueRankingTests {
  let database: CaseDatabase
  let bulletin: Incident

  init() throws {
    database = try seededDatabase(
      on: LocalDateTime(year: 2026, month: 11, day: 29, time: ClockTime(hour: 0, minute: 0)!)!)
    bulletin = try #require(try database.incidents.latest())
  }

  func names(_ ranking: [RankedSuspect]) -> [String] { ranking.map(\.suspect.name) }

  @Test func seedBulletinRanksFavoritesOfThePinkPearlAppleFirst() throws {
    #expect(bulletin.fruit == "Pink Pearl Apple")
    #expect(bulletin.occurredAt.description == "2026-11-29T09:41")
    #expect(bulletin.pawSize == .large)
    let ranking = try SuspicionRanking(database: database).rank(for: bulletin)
    // Catie and Ding favour the apple (3 of 4: no paw match, no alibi, awake); everyone else
    // matches no_alibi and awake only; ties by name ignoring case and accents.
    #expect(
      names(ranking) == [
        "Catie", "Ding", "Cornelius", "Fabrizio", "Haku", "Maria", "Miko", "Rénard", "Ricardo",
        "Soloman",
      ])
    #expect(ranking.map(\.cluesMatched) == [3, 3, 2, 2, 2, 2, 2, 2, 2, 2])
    #expect(ranking.allSatisfy { $0.cluesChecked == 4 })
    #expect(
      ranking[0].clues == [
        ClueVerdict(clue: .pawSize, matched: false),
        ClueVerdict(clue: .favoriteFruit, matched: true),
        ClueVerdict(clue: .noAlibi, matched: true), ClueVerdict(clue: .awake, matched: true),
      ])
    #expect(ranking.map(\.rank) == Array(1...10))
  }

  @Test func alibisSchedulesAndLevelsReorderTheSeedRanking() throws {
    let suspects = database.suspects
    try suspects.setAlibi(id: try suspects.resolve("crow"), "At the library until noon")
    try suspects.setSleepSchedule(
      id: try suspects.resolve("dove"),
      SleepSchedule(sleep: ClockTime(hour: 21, minute: 0)!, wake: ClockTime(hour: 9, minute: 42)!))
    try suspects.setSuspicionLevel(id: try suspects.resolve("rabbit"), SuspicionLevel(0.7)!)
    try suspects.setSuspicionLevel(id: try suspects.resolve("snail"), SuspicionLevel(0.2)!)
    try suspects.edit(id: try suspects.resolve("raccoon"), SuspectEdit(pawSize: .large))
    let ranking = try SuspicionRanking(database: database).rank(for: bulletin)
    // Rénard: large paw + no alibi + awake = 3. Catie: favourite + awake = 2 (alibi). Ding:
    // favourite + no alibi, asleep at 09:41 = 2. Others 2; among the 2s: level, then name.
    #expect(
      names(ranking) == [
        "Rénard", "Ricardo", "Soloman", "Catie", "Cornelius", "Ding", "Fabrizio", "Haku",
        "Maria", "Miko",
      ])
    #expect(ranking.map(\.cluesMatched) == [3, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    let ding = try #require(ranking.first { $0.suspect.name == "Ding" })
    #expect(ding.clues.first { $0.clue == .awake }?.matched == false)
    let catie = try #require(ranking.first { $0.suspect.name == "Catie" })
    #expect(catie.clues.first { $0.clue == .noAlibi }?.matched == false)
  }

  @Test func whitespaceOnlyAlibiCountsAsNoAlibi() throws {
    let id = try database.suspects.resolve("crow")
    try database.suspects.setAlibi(id: id, " \t\n\u{A0}\u{3000}")
    let ranking = try SuspicionRanking(database: database).rank(for: bulletin)
    #expect(
      ranking.first { $0.suspect.id == id }?.clues.first { $0.clue == .noAlibi }?.matched
        == true)
    #expect(try database.suspects.suspect(id: id)?.hasNoAlibi == true)
  }

  @Test func incidentWithoutPawClueChecksThreeClues() throws {
    let incident = try database.incidents.add(
      NewIncident(fruit: "Elstar Apple", occurredAt: try LocalDateTime(parsing: "2026-11-29T12:00"))
    )
    let ranking = try SuspicionRanking(database: database).rank(for: incident, limit: 3)
    #expect(ranking.allSatisfy { $0.cluesChecked == 3 })
    #expect(ranking.allSatisfy { !$0.clues.contains { $0.clue == .pawSize } })
    #expect(names(ranking) == ["Fabrizio", "Soloman", "Catie"])
  }

  @Test func limitAndAll() throws {
    let ranking = SuspicionRanking(database: database)
    #expect(try ranking.rank(for: bulletin, limit: 1).map(\.suspect.name) == ["Catie"])
    #expect(try ranking.rank(for: bulletin, limit: nil).count == 10)
    #expect(
      try ranking.rank(for: bulletin, limit: 3).map(\.suspect.name) == [
        "Catie", "Ding", "Cornelius",
      ])
  }

  /// (sleep, wake, incident time, awake?) — both sides of midnight, the exact sleep and wake
  /// minutes, and equal times (never asleep).
  static let clockCases: [(String, String, String, Bool)] = [
    ("22:30", "06:30", "22:29", true), ("22:30", "06:30", "22:30", false),
    ("22:30", "06:30", "23:59", false), ("22:30", "06:30", "00:00", false),
    ("22:30", "06:30", "06:29", false), ("22:30", "06:30", "06:30", true),
    ("22:30", "06:30", "12:00", true), ("13:00", "15:00", "12:59", true),
    ("13:00", "15:00", "13:00", false), ("13:00", "15:00", "14:59", false),
    ("13:00", "15:00", "15:00", true), ("08:00", "08:00", "08:00", true),
    ("08:00", "08:00", "07:59", true), ("00:00", "00:01", "00:00", false),
    ("23:59", "00:00", "23:59", false), ("23:59", "00:00", "00:00", true),
  ]

  @Test(arguments: clockCases)
  func awakeClueFollowsTheSleepWindow(
    sleep: String, wake: String, time: String, expectedAwake: Bool
  ) throws {
    let schedule = SleepSchedule(
      sleep: try ClockTime(parsing: sleep), wake: try ClockTime(parsing: wake))
    #expect(!schedule.isAsleep(at: try ClockTime(parsing: time)) == expectedAwake)
    let id = try database.suspects.resolve("crow")
    try database.suspects.setSleepSchedule(id: id, schedule)
    let incident = try database.incidents.add(
      NewIncident(
        fruit: "Pink Pearl Apple", occurredAt: try LocalDateTime(parsing: "2026-11-29T\(time)")))
    let row = try #require(
      try SuspicionRanking(database: database).rank(for: incident, limit: nil)
        .first { $0.suspect.id == id })
    #expect(row.clues.first { $0.clue == .awake }?.matched == expectedAwake)
  }

  @Test func noScheduleCountsAsAwake() throws {
    let ranking = try SuspicionRanking(database: database).rank(for: bulletin, limit: nil)
    #expect(ranking.allSatisfy { $0.clues.first { $0.clue == .awake }?.matched == true })
  }

  @Test func rankingWalksTheRankOrderIndexWithoutSorting() throws {
    let plan = try database.connection.prepare("EXPLAIN QUERY PLAN " + SuspicionRanking.scoringSQL)
    var details: [String] = []
    while try plan.step() { details.append(plan.text(at: 3)) }
    #expect(details.contains { $0.contains("SCAN a USING INDEX animals_rank_order") })
    #expect(!details.contains { $0.contains("TEMP B-TREE") })
    #expect(!details.contains { $0.contains("SCAN ff") || $0.contains("SCAN al") })
  }

  /// The top-k walk must agree with scoring every suspect in Swift and sorting.
  /// Seed 99's incident is for a fruit nobody favours, seed 3's for one a single suspect
  /// favours: the walk then scores the favourers apart and stops on the best score the others
  /// can reach.
  @Test(.tags(.slow, .largeScale), .skippedInFastSet, arguments: [1, 3, 7, 42, 99])
  func topKEqualsBruteForceOnRandomCases(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let fruits = try database.fruits.all().map(\.name)
    for index in 0..<300 {
      let favorites = (0..<Int(random.next() % 4)).map { _ in fruits[Int(random.next() % 19)] }
      let suspect = try database.suspects.add(
        NewSuspect(
          name: ["Ann", "Bo", "Émile", "emile", "Zed"][Int(random.next() % 5)],
          species: "Species \(seed)-\(index)", pawSize: PawSize.allCases[Int(random.next() % 3)],
          favoriteFruits: Array(Set(favorites))))
      if random.next() % 2 == 0 {
        try database.suspects.setAlibi(id: suspect.id, random.next() % 3 == 0 ? "  " : "home")
      }
      if random.next() % 2 == 0 {
        try database.suspects.setSleepSchedule(
          id: suspect.id,
          SleepSchedule(
            sleep: ClockTime(hour: Int(random.next() % 24), minute: 0)!,
            wake: ClockTime(hour: Int(random.next() % 24), minute: 30)!))
      }
      try database.suspects.setSuspicionLevel(
        id: suspect.id, SuspicionLevel(Double(random.next() % 5) / 4)!)
    }
    var fruit = fruits[Int(random.next() % 19)]
    if seed == 99 || seed == 3 {
      fruit = try database.fruits.add(name: "Durian", color: "yellow").name
    }
    if seed == 3 {
      let lone = try #require(try database.suspects.all().last)
      try database.suspects.addFavorite(id: lone.id, fruit: fruit)
    }
    let incident = try database.incidents.add(
      NewIncident(
        fruit: fruit,
        occurredAt: try LocalDateTime(parsing: "2026-11-29T0\(random.next() % 10):30"),
        pawSize: seed == 7 ? nil : .large))
    let expected = try bruteForceRanking(database, incident).map(\.id)
    // Every limit up to all (the walk, which stops early for small ones), a limit past
    // `walkedLimit` and nil (SQLite's sort), so the two plans must agree with each other too.
    #expect(SuspicionRanking.walkedLimit < 5000)
    for limit in Array(1...expected.count) + [5000, nil] as [Int?] {
      let actual = try SuspicionRanking(database: database).rank(for: incident, limit: limit)
      #expect(
        actual.map(\.suspect.id) == Array(expected.prefix(limit ?? .max)), "limit \(limit ?? 0)")
    }
  }
}
