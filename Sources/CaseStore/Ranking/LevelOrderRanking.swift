import SQLiteKit

/// The ranking without an incident, for a limit of at most ``SuspicionRanking/walkedLimit``
/// rows (docs/ranking.md "Without an incident").
///
/// `ORDER BY ... LIMIT ?` over `animals` is served by the index `animals_rank_order`, which is
/// the order itself, so SQLite reads only the first `limit` entries; each page of ids is then
/// read whole by id. No clue is checked.
struct LevelOrderRanking {
  /// The case file read.
  let database: CaseDatabase

  /// Hands the first `limit` suspects in level order to `body`, `size` at a time.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read,
  ///   ``CaseError/invalidStoredValue(table:id:column:value:expected:)`` for a stored value
  ///   outside the domain, or what `body` throws.
  func forEachPage(limit: Int, size: Int, _ body: ([RankedSuspect]) throws -> Void) throws {
    var numbering = RankNumbering()
    let rows = try database.statement(
      "SELECT a.id AS id FROM animals a \(SuspicionRanking.rankOrder) LIMIT ?")
    try rows.bind([Int64(limit)])
    let id = try rows.column("id")
    try rows.forEachPage(size: size, record: { try $0.int64(id) }) { ids in
      try body(try database.unit.suspects.suspects(ids: ids).map { numbering.next($0) })
    }
  }
}
