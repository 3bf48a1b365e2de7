import SQLiteKit
import Testing

@testable import CaseStore

/// The ranking's hard cases (docs/ranking.md "The top-k plan"): few suspects, or none, match
/// every clue, so the early stop in rank order cannot help and the clue sets decide. Each kind
/// is checked against the brute-force model at every limit, through the default plan, through
/// the clue sets alone (a walk budget of 0), and through the clue sets picking tied candidates
/// by walking the rank order instead of letting SQLite sort them.
@Suite(.tags(.slow, .largeScale), .skippedInFastSet) struct HardRankingCaseTests {
  enum Kind: String, CaseIterable, CustomTestStringConvertible {
    case mixed, nobodyFavours, pawNobodyHas, mostAsleep, mostAlibis, equalLevels, allAtOnce
    /// Removed suspects leave gaps in the ids and, written with foreign keys off as the sqlite3
    /// shell does by default, interview rows and favourites of suspects that no longer exist.
    case gapsAndOrphans
    /// One id far above the others: the clue sets are not built, the walk reads everyone.
    case spreadIDs
    /// A suspect with a negative id (rowids may be negative): the sets start below zero.
    case negativeIDs

    var testDescription: String { rawValue }

    func has(_ kinds: Kind...) -> Bool { kinds.contains(self) || self == .allAtOnce }
  }

  static let suspects = 150

  /// A case of `kind`: the seed fruits and Durian, `suspects` generated suspects, and the
  /// incident that meets the hard case.
  func makeCase(_ kind: Kind) throws -> (CaseDatabase, Incident) {
    let database = try CaseDatabase()
    for fruit in SeedCase.fruits { try database.fruits.add(name: fruit.name, color: fruit.color) }
    let durian = try database.fruits.add(name: "Durian", color: "olive").name
    let fruits = SeedCase.fruits.map(\.name)
    var random = SplitMix64(seed: UInt64(Kind.allCases.firstIndex(of: kind)!) + 11)
    func chance(_ oneIn: UInt64) -> Bool { random.next() % oneIn == 0 }
    for index in 0..<Self.suspects {
      let names =
        kind.has(.equalLevels) ? ["Pip", "Émile", "emile"] : ["Ann", "Bo", "Zed", "Émile"]
      var paws = PawSize.allCases
      if kind.has(.pawNobodyHas) { paws.removeAll { $0 == .small } }
      let favorites = (0..<Int(random.next() % 4)).map { _ in fruits[Int(random.next() % 19)] }
      let suspect = try database.suspects.add(
        NewSuspect(
          name: names[Int(random.next() % UInt64(names.count))], species: "Species \(index)",
          pawSize: paws[Int(random.next() % UInt64(paws.count))],
          favoriteFruits: Array(Set(favorites))))
      let stated = kind.has(.mostAlibis) ? !chance(50) : chance(2)
      if stated || chance(3) {
        try database.suspects.setAlibi(id: suspect.id, stated ? "home" : " \u{3000}\t")
      }
      if kind.has(.mostAsleep), !chance(20) {
        try database.suspects.setSleepSchedule(
          id: suspect.id, SleepSchedule(sleep: clock(22, 0), wake: clock(7, 0)))
      } else if chance(2) {
        // Whole and half hours, equal times included: the incident at :30 meets every edge.
        try database.suspects.setSleepSchedule(
          id: suspect.id,
          SleepSchedule(
            sleep: clock(Int(random.next() % 24), chance(2) ? 0 : 30),
            wake: clock(Int(random.next() % 24), chance(2) ? 0 : 30)))
      }
      let level = kind.has(.equalLevels) ? 0.5 : Double(random.next() % 5) / 4
      try database.suspects.setSuspicionLevel(id: suspect.id, SuspicionLevel(level)!)
    }
    if kind == .gapsAndOrphans {
      for id in [3, 40, 41, 42, 149] as [Int64] { _ = try database.suspects.remove(id: id) }
      try database.connection.execute("PRAGMA foreign_keys = OFF")
      try database.connection.execute(
        """
        INSERT INTO alibis (animal_id, statement) VALUES (40, ''), (41, 'out');
        INSERT INTO sleep_schedules (animal_id, sleep_at, wake_at) VALUES (42, '00:00', '12:00');
        INSERT INTO favorite_fruits (animal_id, fruit_id, position)
          SELECT 3, id, 0 FROM fruits WHERE name = 'Pink Pearl Apple';
        """)
      try database.connection.execute("PRAGMA foreign_keys = ON")
    }
    if kind == .spreadIDs {
      // Ids far apart, and the two ends of the 64-bit range (their span overflows Int64).
      try database.connection.execute(
        """
        INSERT INTO animals (id, name, species, paw_size) VALUES
          (1099511627776, 'Far', 'Far', 'large'),
          (-9223372036854775808, 'Low', 'Low', 'large'),
          (9223372036854775807, 'High', 'High', 'small');
        """)
    }
    if kind == .negativeIDs {
      try database.connection.execute(
        "INSERT INTO animals (id, name, species, paw_size) VALUES (-7, 'Minus', 'Minus', 'large')")
      try database.suspects.setSuspicionLevel(id: -7, SuspicionLevel(0.25)!)
    }
    let incident = try database.incidents.add(
      NewIncident(
        fruit: kind.has(.nobodyFavours) ? durian : "Pink Pearl Apple",
        occurredAt: try LocalDateTime(
          parsing: kind.has(.mostAsleep) ? "2026-11-29T03:00" : "2026-11-29T07:30"),
        pawSize: kind.has(.pawNobodyHas) ? .small : .large))
    return (database, incident)
  }

  func clock(_ hour: Int, _ minute: Int) -> ClockTime { ClockTime(hour: hour, minute: minute)! }

  @Test(arguments: Kind.allCases)
  func everyPlanEqualsBruteForceAtEveryLimit(kind: Kind) throws {
    let (database, incident) = try makeCase(kind)
    let expected = try bruteForceRanking(database, incident).map(\.id)
    #expect(
      expected.count == Self.suspects - (kind == .gapsAndOrphans ? 5 : 0)
        + (kind == .spreadIDs ? 3 : 0) + (kind == .negativeIDs ? 1 : 0))
    let plans = [
      SuspicionRanking(database: database),
      SuspicionRanking(database: database, testHooks: RankingTestHooks(walkBudget: 0)),
      SuspicionRanking(
        database: database, testHooks: RankingTestHooks(walkBudget: 0, candidatesSortedAtMost: 0)),
    ]
    for limit in Array(1...expected.count) + [5000, nil] as [Int?] {
      for (index, plan) in plans.enumerated() {
        let actual = try plan.rank(for: incident, limit: limit).map(\.suspect.id)
        #expect(
          actual == Array(expected.prefix(limit ?? .max)), "plan \(index), limit \(limit ?? 0)")
      }
    }
  }

  /// The clue sets count each score exactly as the brute-force model scores the suspects, and
  /// are not built when the ids span more than ``ClueSets/maximumSpan`` values.
  @Test(arguments: Kind.allCases)
  func clueSetsCountEveryScore(kind: Kind) throws {
    let (database, incident) = try makeCase(kind)
    let sets = try ClueSets(database: database, incident: incident)
    guard kind != .spreadIDs else {
      #expect(sets == nil)
      return
    }
    let counted = try #require(sets).scoreCounts()
    let ranking = try SuspicionRanking(database: database).rank(for: incident, limit: nil)
    var expected = [Int](repeating: 0, count: 5)
    for row in ranking { expected[row.cluesMatched] += 1 }
    #expect(counted == Array(expected.prefix(counted.count)))
    #expect(counted.reduce(0, +) == ranking.count)
    let matched = { (clue: Clue) in
      ranking.filter { $0.clues.contains(ClueVerdict(clue: clue, matched: true)) }.count
    }
    if kind.has(.nobodyFavours) { #expect(matched(.favoriteFruit) == 0) }
    if kind.has(.pawNobodyHas) { #expect(matched(.pawSize) == 0) }
    if kind.has(.mostAlibis) { #expect(matched(.noAlibi) < Self.suspects / 10) }
    if kind.has(.mostAsleep) { #expect(matched(.awake) < Self.suspects / 5) }
  }

  /// On a file, the clue sets' pass over `sleep_schedules` is shared with a second connection
  /// (`Connection.readingInParallel`): each kind still equals brute force, read-only as `rank`
  /// opens the file and read-write (WAL) alike.
  @Test(arguments: Kind.allCases)
  func theSharedPassOnAFileEqualsBruteForce(kind: Kind) throws {
    let (memory, incident) = try makeCase(kind)
    let expected = try bruteForceRanking(memory, incident).map(\.id)
    try withTemporaryFile { path in
      try memory.connection.execute("VACUUM INTO ?", [path])
      for access in [CaseDatabase.Access.readOnly, .readWrite] {
        let database = try CaseDatabase(path: path, access: access)
        let ranking = SuspicionRanking(
          database: database, testHooks: RankingTestHooks(walkBudget: 0))
        for limit in [1, 7, 20, expected.count] {
          #expect(
            try ranking.rank(for: incident, limit: limit).map(\.suspect.id)
              == Array(expected.prefix(limit)), "\(access), limit \(limit)")
        }
        #expect(database.connection.isAutocommit)
      }
    }
  }

  /// The chunks of the pass over `sleep_schedules` hold disjoint ids whose union is everyone
  /// asleep at the incident's time, and the clue sets count the same scores whether the
  /// partner's share is used or, when it is not, read again.
  @Test(arguments: [Kind.mostAsleep, .gapsAndOrphans, .negativeIDs, .mixed])
  func theAsleepPassChunksPartitionTheSet(kind: Kind) throws {
    let (database, incident) = try makeCase(kind)
    let ranking = try SuspicionRanking(database: database).rank(for: incident, limit: nil)
    let asleep = Set(
      ranking.filter { $0.clues.contains(ClueVerdict(clue: .awake, matched: false)) }
        .map(\.suspect.id))
    #expect(kind != .mostAsleep || asleep.count > Self.suspects / 2)
    let (low, span) = try #require(try ClueSets.idRange(on: database.connection))
    let pass = AsleepPass(time: incident.occurredAt.time.description)
    var union = IDBitset(base: low, span: span)
    for chunk in 0..<AsleepPass.chunkCount {
      var set = IDBitset(base: low, span: span)
      try pass.read(chunk: chunk, on: database.connection, into: &set)
      for (index, word) in set.words.enumerated() {
        #expect(word & union.words[index] == 0, "chunk \(chunk) overlaps an earlier one")
      }
      union.formUnion(set)
    }
    // An orphan schedule (gapsAndOrphans) is read too; no suspect is left for it to count.
    let suspects = Set(ranking.map(\.suspect.id))
    let ids = (0..<span).map { low + Int64($0) }.filter { union.contains($0) }
    #expect(Set(ids).intersection(suspects) == asleep)

    var expected = [Int](repeating: 0, count: 5)
    for row in ranking { expected[row.cluesMatched] += 1 }
    // The partner took every chunk: its share is used, or read again here when it is not.
    let taken = AsleepPass(time: incident.occurredAt.time.description)
    let theirs = try taken.partnerShare(on: database.connection)
    for share in [theirs, nil] {
      let sets = try #require(
        try ClueSets(
          database: database, incident: incident, asleepPass: taken, partnerShare: { share }))
      #expect(sets.scoreCounts() == Array(expected.prefix(sets.best + 1)))
    }
  }

  /// When the clue sets are not built (ids spread too far), the second connection's share of
  /// the pass over `sleep_schedules` covers no ids, so no clue sets take it for theirs, and it
  /// takes no chunk.
  @Test func thePartnersShareIsEmptyWhenTheClueSetsAreNotBuilt() throws {
    let (database, incident) = try makeCase(.spreadIDs)
    let pass = AsleepPass(time: incident.occurredAt.time.description)
    let share = try pass.partnerShare(on: database.connection)
    #expect(share.span == 0 && share.words.isEmpty)
    var set = IDBitset(base: 0, span: 64)
    #expect(
      try pass.readChunksLeft(on: database.connection, into: &set)
        == Array(0..<AsleepPass.chunkCount))
  }

  /// The clue sets still read the stated alibis through their index after ANALYZE (whose
  /// statistics made the planner trim every alibi instead), and still rank right without it.
  @Test func statedAlibisAfterAnalyzeAndWithoutTheirIndex() throws {
    let (database, incident) = try makeCase(.mostAlibis)
    try database.connection.execute("ANALYZE")
    func plan(_ sql: String) throws -> String {
      try database.rows("EXPLAIN QUERY PLAN " + sql).map { $0[3].textValue ?? "" }.joined()
    }
    #expect(try plan(ClueSets.statedAlibisSQL).contains("USING INDEX alibis_stated"))
    let expected = try bruteForceRanking(database, incident).map(\.id)
    try database.connection.execute("DROP INDEX alibis_stated")
    let ranking = SuspicionRanking(database: database, testHooks: RankingTestHooks(walkBudget: 0))
    #expect(
      try ranking.rank(for: incident, limit: 20).map(\.suspect.id) == Array(expected.prefix(20)))
  }

  /// Each clue set is read through its index, not by reading every suspect's rows.
  @Test func clueSetsReadTheirIndexes() throws {
    let database = try CaseDatabase()
    func plan(_ sql: String) throws -> String {
      try database.rows("EXPLAIN QUERY PLAN " + sql).map { $0[3].textValue ?? "" }.joined()
    }
    #expect(try plan(ClueSets.statedAlibisSQL).contains("USING INDEX alibis_stated"))
    #expect(
      try plan(ClueSets.pawMatchesSQL).contains(
        "USING COVERING INDEX animals_paw_size (paw_size=?)"))
    #expect(
      try plan(ClueSets.favourersSQL)
        .contains("USING COVERING INDEX favorite_fruits_fruit (fruit_id=?)"))
  }
}
