import SQLiteKit

/// The top-k walk: the top `limit` suspects for an incident, found by scoring the suspects in
/// the index `animals_rank_order` and stopping as soon as the top rows are certain
/// (docs/ranking.md "The top-k plan").
///
/// The index is already the tie-break order, so the first `limit` suspects that match every
/// clue still open to the others are the final top `limit`: no later suspect can outrank them.
/// The suspects who favour the incident's fruit are scored apart first (docs/ranking.md "When
/// few suspects can match every clue", step 1), so the walk stops once `limit` others match
/// every clue but that one.
/// Memory is at most `limit` suspects per score, whatever the number of suspects.
struct TopKWalk {
  /// The case file read.
  let database: CaseDatabase
  /// The incident whose clues are checked.
  let incident: Incident
  /// How many rows at most (1 or more).
  let limit: Int

  /// How many suspects the walk reads for a `limit` before it gives way to the clue sets:
  /// 1,000 + 25 per row wanted. A friendly case stops far earlier (at 1,000,000 suspects the
  /// seed-like bulletin's top 20 are certain after about 900); reading the clue sets costs
  /// about one pass over each clue's table.
  static func budget(limit: Int) -> Int { 1000 + 25 * limit }

  /// The top `limit` suspects in ranking order, or `nil` when `budget` suspects were read
  /// without the top `limit` becoming certain.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read, `RowDecodingError` for a
  ///   verdict that is not an integer.
  func top(budget: Int) throws -> [ScoredSuspect]? {
    let favourers = try favourers(atMost: max(1000, 50 * limit))
    let rows = try database.statement(SuspicionRanking.scoringSQL)
    try rows.bind(SuspicionRanking.parameters(for: incident))
    let reader = try VerdictReader(rows, incident: incident)
    let best = reader.checked.count
    // With the favourers scored apart, no suspect left to walk matches the favourite clue, so
    // none can score more than best - 1: the walk stops once `limit` suspects reach that.
    let walkedBest = favourers == nil ? best : best - 1
    // buckets[score]: the first `limit` suspects with that score, in walk (tie-break) order.
    var buckets = [[ScoredSuspect]](repeating: [], count: best + 1)
    var read = 0
    while let row = try rows.nextRow() {
      read += 1
      if read > budget { return nil }
      let scored = try reader.scored(row)
      if let favourers, favourers.contains(scored.id) { continue }
      let score = scored.score
      if buckets[score].count < limit { buckets[score].append(scored) }
      if buckets[walkedBest].count >= limit { break }
    }
    guard let favourers, !favourers.isEmpty else {
      return Array(buckets.reversed().joined().prefix(limit))
    }
    return try merged(buckets, withFavourers: favourers, best: best)
  }

  /// The top `limit` suspects after a walk over every suspect (no budget), when the clue sets
  /// cannot be built.
  ///
  /// - Throws: What ``top(budget:)`` throws.
  func topToTheEnd() throws -> [ScoredSuspect] {
    // Without a budget the walk always ends with a result.
    try top(budget: .max) ?? []
  }

  // MARK: - Private helpers

  /// The ids of the suspects who favour the incident's fruit (read through the index
  /// `favorite_fruits_fruit`), or `nil` when there are more than `cap` (then the walk stops
  /// early among them anyway).
  private func favourers(atMost cap: Int) throws -> Set<Int64>? {
    let rows = try database.statement(
      "SELECT animal_id FROM favorite_fruits WHERE fruit_id = ? LIMIT ?")
    try rows.bind([incident.fruitID, Int64(cap + 1)])
    let column = try rows.column("animal_id")
    var ids = Set<Int64>()
    while let row = try rows.nextRow() { ids.insert(try row.int64(column)) }
    return ids.count > cap ? nil : ids
  }

  /// The walked `buckets` merged with the `favourers`, scored now: the top `limit` in score
  /// then tie-break order, the tie-break order of the candidates taken from the index as
  /// SQLite reads it.
  private func merged(
    _ buckets: [[ScoredSuspect]], withFavourers favourers: Set<Int64>, best: Int
  ) throws -> [ScoredSuspect] {
    var verdicts: [Int64: [ClueVerdict]] = [:]
    for bucket in buckets { for scored in bucket { verdicts[scored.id] = scored.verdicts } }
    let scoredFavourers = try database.statement(
      """
      SELECT \(SuspicionRanking.scoreColumns) FROM animals a
      WHERE a.id IN (SELECT value FROM json_each(?5))
      """)
    try scoredFavourers.bind(SuspicionRanking.parameters(for: incident) + [favourers.jsonArray])
    let favourerReader = try VerdictReader(scoredFavourers, incident: incident)
    while let row = try scoredFavourers.nextRow() {
      let scored = try favourerReader.scored(row)
      verdicts[scored.id] = scored.verdicts
    }
    let ordered = try database.statement(
      """
      SELECT a.id AS id FROM animals a WHERE a.id IN (SELECT value FROM json_each(?))
      \(SuspicionRanking.rankOrder)
      """)
    try ordered.bind([verdicts.keys.jsonArray])
    let id = try ordered.column("id")
    var byScore = [[ScoredSuspect]](repeating: [], count: best + 1)
    while let row = try ordered.nextRow() {
      let candidate = try row.int64(id)
      if let found = verdicts[candidate] {
        let scored = ScoredSuspect(id: candidate, verdicts: found)
        byScore[scored.score].append(scored)
      }
    }
    return Array(byScore.reversed().joined().prefix(limit))
  }
}
