import SQLiteKit

/// The clue-set ranking: the top `limit` suspects for an incident, taken from one bitset per
/// clue (``ClueSets``) when the top-k walk could not stop early (docs/ranking.md "When few
/// suspects can match every clue: the clue sets").
///
/// The number of suspects with each score, counted from the sets, gives the lowest score in
/// the top `limit` (the threshold) and how many suspects score above it; those are listed from
/// the sets, and the first suspects at the threshold in rank order complete the top.
struct ClueSetRanking {
  /// The case file read.
  let database: CaseDatabase
  /// The incident whose clues are checked.
  let incident: Incident
  /// How many rows at most (1 or more).
  let limit: Int
  /// The most candidates at the threshold that SQLite puts in rank order
  /// (``sortedCandidatesLimit`` but in tests); more are picked by walking `animals_rank_order`.
  let candidatesSortedAtMost: Int

  /// The most equally scored candidates whose rank order SQLite sorts by id; more are picked
  /// by walking `animals_rank_order` (index only, a bit test per suspect) instead.
  static let sortedCandidatesLimit = 20_000

  /// Reads the clue sets in one read transaction and hands `body` the top `limit` suspects in
  /// ranking order, or `nil` when the sets are not built (no suspects, or ids spread over more
  /// than ``ClueSets/maximumSpan`` values), still inside that transaction, so that what `body`
  /// reads comes from the same snapshot.
  ///
  /// The pass over `sleep_schedules`, the longest, is shared with a second, read-only
  /// connection reading the same snapshot, which starts on it while this one reads the other
  /// sets (`Connection.readingInParallel`, ``AsleepPass``); when the snapshots could differ,
  /// this connection reads the second one's chunks too.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read, or what `body` throws.
  func withTop(_ body: ([ScoredSuspect]?) throws -> Void) throws {
    let pass = AsleepPass(time: incident.occurredAt.time.description)
    try database.connection.readingInParallel(partner: { try pass.partnerShare(on: $0) }) {
      partnerShare in
      let sets = try ClueSets(
        database: database, incident: incident, asleepPass: pass, partnerShare: partnerShare)
      try body(try sets.map(top(from:)))
    }
  }

  /// The top `limit` suspects from `sets`: every suspect scoring above the lowest score the
  /// top `limit` reach (fewer than `limit` of them), then the first suspects in rank order with
  /// exactly that score.
  ///
  /// - Returns: Ids and verdicts in ranking order.
  /// - Throws: `SQLiteError` when the database cannot be read.
  func top(from sets: ClueSets) throws -> [ScoredSuspect] {
    let counts = sets.scoreCounts()
    // threshold: the lowest score in the top `limit`; higher: how many suspects score above it.
    var (threshold, higher) = (0, 0)
    for score in stride(from: sets.best, through: 1, by: -1) {
      if higher + counts[score] >= limit {
        threshold = score
        break
      }
      higher += counts[score]
    }
    let needed = min(limit - higher, counts[threshold])
    var picked: [Int64] = []
    if counts[threshold] <= candidatesSortedAtMost {
      picked = try inRankOrder(sets.ids(scoring: threshold...threshold), limit: needed)
    } else {
      let rows = try database.statement(
        "SELECT a.id AS id FROM animals a \(SuspicionRanking.rankOrder)")
      let id = try rows.column("id")
      while picked.count < needed, let row = try rows.nextRow() {
        let suspect = try row.int64(id)
        if sets.score(suspect) == threshold { picked.append(suspect) }
      }
    }
    var byScore = [[Int64]](repeating: [], count: sets.best + 1)
    if threshold < sets.best {
      for id in try inRankOrder(sets.ids(scoring: (threshold + 1)...sets.best), limit: nil) {
        byScore[sets.score(id)].append(id)
      }
    }
    byScore[threshold] = picked
    return byScore.reversed().joined().map { ScoredSuspect(id: $0, verdicts: sets.verdicts($0)) }
  }

  // MARK: - Private helpers

  /// The first `limit` (all for `nil`) of `ids` in the ranking's tie-break order, as SQLite
  /// sorts them after looking each one up by id.
  private func inRankOrder(_ ids: [Int64], limit: Int?) throws -> [Int64] {
    guard !ids.isEmpty, limit != 0 else { return [] }
    let rows = try database.statement(
      """
      SELECT a.id AS id FROM animals a WHERE a.id IN (SELECT value FROM json_each(?))
      \(SuspicionRanking.rankOrder) LIMIT ?
      """)
    try rows.bind([ids.jsonArray, Int64(limit ?? -1)])
    let id = try rows.column("id")
    var ordered: [Int64] = []
    while let row = try rows.nextRow() { ordered.append(try row.int64(id)) }
    return ordered
  }
}
