/// Ranks suspects (docs/ranking.md).
///
/// Without an incident: suspicion level descending, then name ignoring case and accents, then
/// species, then id. With an incident: clues matched descending first, then the same order.
///
/// Four plans compute that order; this type only chooses between them, by the size of the
/// limit and, for an incident, by how soon the top rows are certain (docs/ranking.md "Which
/// plan runs when"):
///
/// - `LevelOrderRanking`: no incident, at most `walkedLimit` rows. Reads the first rows of
///   the index `animals_rank_order`, which is the order itself.
/// - `TopKWalk`: an incident, at most `walkedLimit` rows. Walks the same index scoring
///   each suspect and stops as soon as no later suspect can outrank the top rows.
/// - `ClueSetRanking`: when the walk has read its budget without stopping (few suspects
///   match every clue), reads one bitset per clue and takes the top rows from the counts; when
///   the ids are too spread out for bitsets, the walk runs to the end instead.
/// - `FullSort`: more than `walkedLimit` rows, or all of them. SQLite sorts every suspect
///   (its sorter spills to temporary files, so memory stays flat) and the rows are handed on a
///   page at a time.
public struct SuspicionRanking {
  // MARK: - Properties

  /// The case file read.
  let database: CaseDatabase
  /// Plan choices forced by tests; empty in production.
  let testHooks: RankingTestHooks

  /// The largest limit served by the walks (``LevelOrderRanking``, ``TopKWalk``); larger
  /// limits, and no limit, use ``FullSort``.
  static let walkedLimit = 1000

  // MARK: - Init

  /// Creates a ranking over `database`, read inside the unit of work whose handle vends it
  /// (``CaseTransaction/ranking``).
  init(database: CaseDatabase) {
    self.init(database: database, testHooks: RankingTestHooks())
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

  /// Hands the ranking by suspicion level to `body` a page at a time (`rank --all` streams it):
  /// `LevelOrderRanking` up to `walkedLimit` rows, `FullSort` beyond and for `nil`.
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
    guard let limit, limit <= Self.walkedLimit else {
      try FullSort(database: database).forEachPage(limit: limit, size: size, body)
      return
    }
    try LevelOrderRanking(database: database).forEachPage(limit: limit, size: size, body)
  }

  /// The top `limit` suspects for an incident's clues (docs/ranking.md "With an incident").
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
  /// --all` streams it): the top-k plan up to `walkedLimit` rows, `FullSort` beyond and
  /// for `nil`.
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
    guard let limit, limit <= Self.walkedLimit else {
      try FullSort(database: database).forEachPage(
        for: incident, limit: limit, size: size, body)
      return
    }
    var numbering = RankNumbering()
    try topK(for: incident, limit: limit) { top in
      try top.forEachPage(size: size) { page in
        let suspects = try database.unit.suspects.suspects(ids: page.map(\.id))
        try body(zip(page, suspects).map { numbering.next($1, clues: $0.verdicts) })
      }
    }
  }

  // MARK: - Private helpers

  /// The top-k plan (docs/ranking.md "The top-k plan"): hands `body` the top `limit` suspects
  /// inside the read transaction that chose them, so that the rows `body` reads and the
  /// verdicts come from one snapshot of the file.
  ///
  /// 1. ``TopKWalk`` within its budget, in one snapshot: done when it stops.
  /// 2. Otherwise ``ClueSetRanking``, in a new snapshot shared with a second connection.
  /// 3. When the ids are too spread out for the clue sets, ``TopKWalk`` to the end, in that
  ///    same snapshot.
  private func topK(
    for incident: Incident, limit: Int, _ body: ([ScoredSuspect]) throws -> Void
  ) throws {
    let walk = TopKWalk(database: database, incident: incident, limit: limit)
    let budget = testHooks.walkBudget ?? TopKWalk.budget(limit: limit)
    let stopped = try database.readingOneSnapshot {
      guard let top = try walk.top(budget: budget) else { return false }
      try body(top)
      return true
    }
    if stopped { return }
    let clueSets = ClueSetRanking(
      database: database, incident: incident, limit: limit,
      candidatesSortedAtMost: testHooks.candidatesSortedAtMost
        ?? ClueSetRanking.sortedCandidatesLimit)
    try clueSets.withTop { top in try body(top ?? walk.topToTheEnd()) }
  }
}
