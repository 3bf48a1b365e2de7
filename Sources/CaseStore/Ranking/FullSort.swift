import SQLiteKit

/// The ranking when more than ``SuspicionRanking/walkedLimit`` rows are wanted, or all of them
/// (`rank --all`): SQLite reads every suspect in id order and sorts them in rank order
/// (docs/ranking.md "Large limits: the full sort").
///
/// Its sorter spills to temporary files, so memory stays flat, and the rows are handed on as
/// the sort yields them: one pass over the tables costs far less than a look-up in every table
/// for each suspect, which is what the walks would do for so many rows.
struct FullSort {
  /// The case file read.
  let database: CaseDatabase

  /// Hands every suspect (the first `limit`, when not `nil`) in level order to `body`, `size`
  /// at a time; no clue is checked.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read,
  ///   ``CaseError/invalidStoredValue(table:id:column:value:expected:)`` for a stored value
  ///   outside the domain, or what `body` throws.
  func forEachPage(limit: Int?, size: Int, _ body: ([RankedSuspect]) throws -> Void) throws {
    var numbering = RankNumbering()
    try database.unit.suspects.forEachPage(
      orderBy: SuspicionRanking.rankOrder, limit: limit, size: size
    ) { page in
      try body(page.map { numbering.next($0) })
    }
  }

  /// Hands every suspect (the first `limit`, when not `nil`) to `body`, `size` at a time, in
  /// the order of their score against `incident`'s clues, then level order; each with its
  /// verdicts, scored by ``SuspicionRanking/verdictColumns`` in the sorting statement itself.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read,
  ///   ``CaseError/invalidStoredValue(table:id:column:value:expected:)`` for a stored value
  ///   outside the domain, or what `body` throws.
  func forEachPage(
    for incident: Incident, limit: Int?, size: Int, _ body: ([RankedSuspect]) throws -> Void
  ) throws {
    var numbering = RankNumbering()
    try database.unit.suspects.forEachPage(
      orderBy: SuspicionRanking.sortedScoreOrder, limit: limit, size: size,
      extraColumns: SuspicionRanking.verdictColumns,
      parameters: SuspicionRanking.parameters(for: incident),
      extra: { statement in
        let reader = try VerdictReader(statement, incident: incident)
        return { try reader.scored($0).verdicts }
      }
    ) { page in
      try body(page.map { suspect, verdicts in numbering.next(suspect, clues: verdicts) })
    }
  }
}
