extension SuspicionRanking {
  /// The most equally scored candidates whose rank order SQLite sorts by id (docs/ranking.md
  /// "The top-k plan"); more are picked by walking `animals_rank_order` instead.
  static let sortedCandidatesLimit = 20_000

  /// The top `limit` suspects from the clue sets: every suspect scoring above the lowest score
  /// the top `limit` reach (fewer than `limit` of them), then the first suspects in rank order
  /// with exactly that score.
  ///
  /// - Parameters:
  ///   - sets: The incident's clue sets.
  ///   - limit: How many rows at most (1 or more).
  /// - Returns: Ids and verdicts in ranking order.
  /// - Throws: `SQLiteError` when the database cannot be read.
  func top(from sets: ClueSets, limit: Int) throws -> [(id: Int64, verdicts: [ClueVerdict])] {
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
      let rows = try database.statement("SELECT a.id AS id FROM animals a \(Self.rankOrder)")
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
    return byScore.reversed().joined().map { ($0, sets.verdicts($0)) }
  }

  /// The first `limit` (all for `nil`) of `ids` in the ranking's tie-break order, as SQLite
  /// sorts them after looking each one up by id.
  private func inRankOrder(_ ids: [Int64], limit: Int?) throws -> [Int64] {
    guard !ids.isEmpty, limit != 0 else { return [] }
    let rows = try database.statement(
      """
      SELECT a.id AS id FROM animals a WHERE a.id IN (SELECT value FROM json_each(?))
      \(Self.rankOrder) LIMIT ?
      """)
    try rows.bind([ids.jsonArray, Int64(limit ?? -1)])
    let id = try rows.column("id")
    var ordered: [Int64] = []
    while let row = try rows.nextRow() { ordered.append(try row.int64(id)) }
    return ordered
  }
}
