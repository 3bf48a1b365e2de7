import SQLiteKit

/// One clue's verdict for one suspect.
public struct ClueVerdict: Hashable, Sendable {
  /// Which clue.
  public let clue: Clue
  /// `true` when the suspect matches it (points towards the suspect).
  public let matched: Bool
}

/// One row of the ranking: a suspect, its place, and (with an incident) its clue verdicts.
public struct RankedSuspect: Hashable, Sendable {
  /// 1 for the most suspicious.
  public let rank: Int
  /// The suspect, with favourites and interview.
  public let suspect: Suspect
  /// The verdict of each clue checked, in ``Clue`` order; empty without an incident.
  public let clues: [ClueVerdict]

  /// How many clues the suspect matches.
  public var cluesMatched: Int { clues.filter(\.matched).count }
  /// How many clues were checked (0 without an incident; 3 or 4 with one).
  public var cluesChecked: Int { clues.count }
}

/// Ranks suspects (README "The ranking").
///
/// Without an incident: suspicion level descending, then name ignoring case and accents, then
/// species, then id. With an incident: clues matched descending first, then the same order.
///
/// The ranking is computed in SQL as a top-k plan: suspects are read in the index
/// `animals_rank_order` (level, name key, species key, id), which is already the tie-break
/// order, with each row's clues scored by indexed look-ups, and the walk stops as soon as
/// `limit` suspects matching every checked clue have been seen, since no later suspect can
/// outrank them. Memory is bounded by `limit` per score, whatever the number of suspects. When
/// the walk has not stopped within `earlyStopBudget(limit:)` suspects (few suspects can match
/// every clue), the ranking reads the clue sets instead (`ClueSets`: one bitset per clue,
/// counted a word at a time) and takes the winners from the counts (docs/ranking.md "The top-k
/// plan").
/// Limits above `walkedLimit` (1,000), and the whole ranking, are sorted by SQLite instead, whose
/// sorter keeps memory flat, and handed on a page at a time.
public struct SuspicionRanking {
  // MARK: - Properties

  let database: CaseDatabase
  /// How many suspects the early-stop walk may read before the ranking reads the clue sets
  /// instead; `nil` for ``earlyStopBudget(limit:)``. Tests set 0 to reach the clue sets on small
  /// cases.
  let walkBudget: Int?
  /// The most equally scored candidates the clue sets let SQLite sort by id
  /// (``sortedCandidatesLimit``); tests set 0 to reach the walk that picks them instead.
  let candidatesSortedAtMost: Int

  // MARK: - Init

  /// Creates a ranking over `database`.
  public init(database: CaseDatabase) {
    self.init(database: database, walkBudget: nil)
  }

  /// Creates a ranking over `database` whose early-stop walk reads at most `walkBudget`
  /// suspects (`nil`: ``earlyStopBudget(limit:)``) and whose clue sets let SQLite sort at most
  /// `candidatesSortedAtMost` candidates.
  init(
    database: CaseDatabase, walkBudget: Int?,
    candidatesSortedAtMost: Int = Self.sortedCandidatesLimit
  ) {
    self.database = database
    self.walkBudget = walkBudget
    self.candidatesSortedAtMost = candidatesSortedAtMost
  }

  // MARK: - Public API

  /// The top `limit` suspects by suspicion level (no incident).
  ///
  /// - Parameter limit: How many rows at most (docs/command-line.md: 20 by default); `nil` for
  ///   all.
  /// - Throws: What ``forEachPage(limit:size:_:)`` throws.
  public func bySuspicionLevel(limit: Int? = 20) throws -> [RankedSuspect] {
    var ranking: [RankedSuspect] = []
    try forEachPage(limit: limit) { ranking += $0 }
    return ranking
  }

  /// Hands the ranking by suspicion level to `body` a page at a time (`rank --all` streams it).
  ///
  /// Up to `walkedLimit` (1,000) rows, the index `animals_rank_order` is walked and each page of
  /// suspects looked up by id. Beyond it, and for `nil`, SQLite reads every suspect in id order
  /// and sorts them in rank order (its sorter spills to temporary files, so memory stays flat):
  /// one pass over the tables costs far less than a look-up in every table for each suspect.
  ///
  /// - Parameters:
  ///   - limit: How many rows at most; `nil` for all.
  ///   - size: Suspects per page (1 or more; 1,000 by default).
  ///   - body: Receives each page, ranks counting on from the last page; never an empty page.
  /// - Throws: `SQLiteError` when the database cannot be read,
  ///   ``CaseError/invalidStoredValue(table:id:column:value:expected:)`` for a stored value
  ///   outside the domain, or what `body` throws.
  public func forEachPage(
    limit: Int?, size: Int = 1000, _ body: ([RankedSuspect]) throws -> Void
  ) throws {
    var ranked = 0
    guard let limit, limit <= Self.walkedLimit else {
      try database.suspects.forEachPage(orderBy: Self.rankOrder, limit: limit, size: size) {
        page in
        try body(
          page.map { suspect in
            ranked += 1
            return RankedSuspect(rank: ranked, suspect: suspect, clues: [])
          })
      }
      return
    }
    let rows = try database.statement(
      "SELECT a.id AS id FROM animals a \(Self.rankOrder) LIMIT ?")
    try rows.bind([Int64(limit)])
    let id = try rows.column("id")
    try rows.forEachPage(size: size, record: { try $0.int64(id) }) { ids in
      try body(
        try database.suspects.suspects(ids: ids).map { suspect in
          ranked += 1
          return RankedSuspect(rank: ranked, suspect: suspect, clues: [])
        })
    }
  }

  /// The top `limit` suspects for an incident's clues (docs/ranking.md).
  ///
  /// - Parameters:
  ///   - incident: The incident whose clues are checked.
  ///   - limit: How many rows at most (20 by default); `nil` for all.
  /// - Throws: What ``forEachPage(for:limit:size:_:)`` throws.
  public func rank(for incident: Incident, limit: Int? = 20) throws -> [RankedSuspect] {
    var ranking: [RankedSuspect] = []
    try forEachPage(for: incident, limit: limit) { ranking += $0 }
    return ranking
  }

  /// Hands the ranking for an incident's clues to `body` a page at a time (`rank --incident
  /// --all` streams it).
  ///
  /// Up to `walkedLimit` (1,000) rows, the index walk with its early stop picks the top rows (see the
  /// type's documentation), and they are then read a page at a time. Beyond it, and for `nil`,
  /// SQLite sorts every suspect by score and tie-break order (its sorter spills to temporary
  /// files, so memory stays flat) and the rows are handed on as the sort yields them.
  ///
  /// - Parameters:
  ///   - incident: The incident whose clues are checked.
  ///   - limit: How many rows at most; `nil` for all.
  ///   - size: Suspects per page (1 or more; 1,000 by default).
  ///   - body: Receives each page, ranks counting on from the last page; never an empty page.
  /// - Throws: `SQLiteError` when the database cannot be read,
  ///   ``CaseError/invalidStoredValue(table:id:column:value:expected:)`` for a stored value
  ///   outside the domain, or what `body` throws.
  public func forEachPage(
    for incident: Incident, limit: Int?, size: Int = 1000,
    _ body: ([RankedSuspect]) throws -> Void
  ) throws {
    var ranked = 0
    func hand(_ page: [(id: Int64, verdicts: [ClueVerdict])]) throws {
      let suspects = try database.suspects.suspects(ids: page.map(\.id))
      try body(
        zip(page, suspects).map { scored, suspect in
          ranked += 1
          return RankedSuspect(rank: ranked, suspect: suspect, clues: scored.verdicts)
        })
    }
    if let limit, limit <= Self.walkedLimit {
      try walk(for: incident, limit: limit) { try $0.forEachPage(size: size, hand) }
      return
    }
    try database.suspects.forEachPage(
      orderBy: Self.sortedScoreOrder, limit: limit, size: size,
      extraColumns: Self.verdictColumns, parameters: Self.parameters(for: incident),
      extra: { statement in
        let reader = try VerdictReader(statement, incident: incident)
        return { try reader.scored($0).verdicts }
      }
    ) { page in
      try body(
        page.map { suspect, verdicts in
          ranked += 1
          return RankedSuspect(rank: ranked, suspect: suspect, clues: verdicts)
        })
    }
  }

  // MARK: - Internal helpers

  /// The largest limit served by the index walk; larger limits, and `--all`, use SQLite's sort.
  static let walkedLimit = 1000

  /// How many suspects the early-stop walk reads for a `limit` before giving way to the clue
  /// sets: 1,000 + 25 per row wanted. A friendly case stops far earlier (at 1,000,000 suspects
  /// the seed-like bulletin's top 20 are certain after about 900); reading the clue sets costs
  /// about one pass over each clue's table.
  static func earlyStopBudget(limit: Int) -> Int { 1000 + 25 * limit }

  /// The top `limit` suspects: the early-stop walk, or when it has not stopped within its
  /// budget, the clue sets (docs/ranking.md "The top-k plan"); the walk to the end when the
  /// ids are too spread out for the clue sets. They are handed to `body`, which reads the
  /// suspects' rows, inside the read transaction that chose them, so that rows and verdicts
  /// come from one snapshot of the file.
  ///
  /// The clue sets' pass over `sleep_schedules` is shared with a second connection reading the
  /// same snapshot, which starts on it while this one reads the other sets
  /// (`Connection.readingInParallel`, ``AsleepPass``); when the snapshots could differ, this
  /// connection reads the second one's chunks too.
  private func walk(
    for incident: Incident, limit: Int,
    _ body: ([(id: Int64, verdicts: [ClueVerdict])]) throws -> Void
  ) throws {
    let budget = walkBudget ?? Self.earlyStopBudget(limit: limit)
    let stopped = try database.readingOneSnapshot {
      guard let top = try earlyStopWalk(for: incident, limit: limit, budget: budget) else {
        return false
      }
      try body(top)
      return true
    }
    if stopped { return }
    let pass = AsleepPass(time: incident.occurredAt.time.description)
    try database.connection.readingInParallel(partner: { try pass.partnerShare(on: $0) }) {
      partnerShare in
      if let sets = try ClueSets(
        database: database, incident: incident, asleepPass: pass,
        partnerShare: { partnerShare() ?? nil })
      {
        try body(try top(from: sets, limit: limit))
      } else {
        // Without a budget the walk always ends with a result.
        try body(try earlyStopWalk(for: incident, limit: limit, budget: .max) ?? [])
      }
    }
  }

  /// The top `limit` suspects by walking the index in tie-break order with the early stop, or
  /// `nil` when `budget` suspects were read without the top `limit` becoming certain.
  private func earlyStopWalk(for incident: Incident, limit: Int, budget: Int) throws -> [(
    id: Int64, verdicts: [ClueVerdict]
  )]? {
    let favourers = try favourers(of: incident, atMost: max(1000, 50 * limit))
    let rows = try database.statement(Self.scoringSQL)
    try rows.bind(Self.parameters(for: incident))
    let reader = try VerdictReader(rows, incident: incident)
    let best = reader.checked.count
    // With the favourers scored apart, no suspect left to walk matches the favourite clue, so
    // none can score more than best - 1: the walk stops once `limit` suspects reach that.
    let walkedBest = favourers == nil ? best : best - 1
    // buckets[score]: the first `limit` suspects with that score, in walk (tie-break) order.
    var buckets = [[(id: Int64, verdicts: [ClueVerdict])]](repeating: [], count: best + 1)
    var read = 0
    while let row = try rows.nextRow() {
      read += 1
      if read > budget { return nil }
      let scored = try reader.scored(row)
      if let favourers, favourers.contains(scored.id) { continue }
      let score = scored.verdicts.filter(\.matched).count
      if buckets[score].count < limit { buckets[score].append(scored) }
      if buckets[walkedBest].count >= limit { break }
    }
    guard let favourers, !favourers.isEmpty else {
      return Array(buckets.reversed().joined().prefix(limit))
    }
    // Merge: the favourers' scores with the walked ones, in score then tie-break order, the
    // tie-break order of the candidates taken from the index as SQLite reads it.
    var verdicts: [Int64: [ClueVerdict]] = [:]
    for bucket in buckets { for scored in bucket { verdicts[scored.id] = scored.verdicts } }
    let scoredFavourers = try database.statement(
      "SELECT \(Self.scoreColumns) FROM animals a WHERE a.id IN (SELECT value FROM json_each(?5))")
    try scoredFavourers.bind(Self.parameters(for: incident) + [favourers.jsonArray])
    let favourerReader = try VerdictReader(scoredFavourers, incident: incident)
    while let row = try scoredFavourers.nextRow() {
      let scored = try favourerReader.scored(row)
      verdicts[scored.id] = scored.verdicts
    }
    let ordered = try database.statement(
      "SELECT a.id AS id FROM animals a WHERE a.id IN (SELECT value FROM json_each(?)) \(Self.rankOrder)"
    )
    try ordered.bind([verdicts.keys.jsonArray])
    let id = try ordered.column("id")
    var byScore = [[(id: Int64, verdicts: [ClueVerdict])]](repeating: [], count: best + 1)
    while let row = try ordered.nextRow() {
      let candidate = try row.int64(id)
      if let found = verdicts[candidate] {
        byScore[found.filter(\.matched).count].append((candidate, found))
      }
    }
    return Array(byScore.reversed().joined().prefix(limit))
  }

  /// The ids of the suspects who favour the incident's fruit (read through the index
  /// `favorite_fruits_fruit`), or `nil` when there are more than `cap` (then the walk stops
  /// early among them anyway).
  private func favourers(of incident: Incident, atMost cap: Int) throws -> Set<Int64>? {
    let rows = try database.statement(
      "SELECT animal_id FROM favorite_fruits WHERE fruit_id = ? LIMIT ?")
    try rows.bind([incident.fruitID, Int64(cap + 1)])
    let column = try rows.column("animal_id")
    var ids = Set<Int64>()
    while let row = try rows.nextRow() { ids.insert(try row.int64(column)) }
    return ids.count > cap ? nil : ids
  }

  /// The parameters of ``scoringSQL``: paw clue (or NULL), fruit id, the alibi white space, the
  /// incident's clock time.
  static func parameters(for incident: Incident) -> [any SQLiteBindable] {
    [
      incident.pawSize?.rawValue, incident.fruitID, Suspect.alibiWhitespace,
      incident.occurredAt.time.description,
    ]
  }

  // MARK: - Internal helpers

  /// The ranking's tie-break order, served by the index `animals_rank_order`.
  static let rankOrder = "ORDER BY a.suspicion_level DESC, a.name_key, a.species_key, a.id"

  /// Every suspect in tie-break order with its clue verdicts (columns: id, paw_match,
  /// favorite_fruit, no_alibi, awake). Parameters: paw clue (or NULL), fruit id, the alibi
  /// whitespace characters, the incident's clock time `HH:MM`. Asleep means the time lies in
  /// [sleep, wake), wrapping past midnight when sleep is later than wake; equal means never.
  static let scoringSQL = "SELECT \(scoreColumns) FROM animals a \(rankOrder)"

  /// The whole ranking's order: score, then tie-break order, over ``verdictColumns`` selected
  /// with the suspects' columns (``SuspectRepository/forEachPage(orderBy:limit:size:_:)``).
  /// There is no `LIMIT`: with one, SQLite sorts into a temporary B-tree rather than its
  /// sorter, which for a million rows reads and writes the temporary file a page at a time; the
  /// reader stops after the limit instead.
  static let sortedScoreOrder = """
    ORDER BY coalesce(a.paw_size = ?1, 0) + favorite_fruit + no_alibi + awake DESC,
      a.suspicion_level DESC, a.name_key, a.species_key, a.id
    """

  /// The columns of ``scoringSQL``.
  static let scoreColumns = "a.id AS id, \(verdictColumns)"

  /// The verdict columns of ``scoreColumns`` (paw_match, favorite_fruit, no_alibi, awake).
  static let verdictColumns = """
    coalesce(a.paw_size = ?1, 0) AS paw_match,
      EXISTS (SELECT 1 FROM favorite_fruits ff WHERE ff.animal_id = a.id AND ff.fruit_id = ?2)
        AS favorite_fruit,
      NOT EXISTS (SELECT 1 FROM alibis al
                  WHERE al.animal_id = a.id AND trim(al.statement, ?3) <> '') AS no_alibi,
      NOT EXISTS (SELECT 1 FROM sleep_schedules s WHERE s.animal_id = a.id AND
        CASE WHEN s.sleep_at < s.wake_at THEN ?4 >= s.sleep_at AND ?4 < s.wake_at
             WHEN s.sleep_at > s.wake_at THEN ?4 >= s.sleep_at OR ?4 < s.wake_at
             ELSE 0 END) AS awake
    """
}
