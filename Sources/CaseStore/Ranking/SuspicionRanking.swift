import SQLiteKit

/// One row of the ranking: a suspect and its place.
public struct RankedSuspect: Hashable, Sendable {
  /// 1 for the most suspicious.
  public let rank: Int
  /// The suspect, with favourites and interview.
  public let suspect: Suspect
}

/// Ranks suspects (SPEC.md section 5). Without an incident: suspicion level descending, then
/// name ignoring case and accents, then species, then id. Computed in SQL with a limit, so only
/// the rows asked for are loaded.
public struct SuspicionRanking {
  // MARK: - Properties

  let database: CaseDatabase

  // MARK: - Init

  /// Creates a ranking over `database`.
  public init(database: CaseDatabase) {
    self.database = database
  }

  // MARK: - Public API

  /// The top `limit` suspects by suspicion level.
  ///
  /// - Parameter limit: How many rows at most (SPEC.md section 4: 20 by default); `nil` for all.
  /// - Throws: `SQLiteError` when the database cannot be read.
  public func bySuspicionLevel(limit: Int? = 20) throws -> [RankedSuspect] {
    let rows = try database.statement(
      """
      SELECT \(SuspectRepository.columns) \(SuspectRepository.joins)
      ORDER BY coalesce(l.level, 0.0) DESC, a.name_key, a.species_key, a.id
      LIMIT ?
      """)
    try rows.bind([Int64(limit ?? -1)])
    var suspects: [Suspect] = []
    while try rows.step() {
      suspects.append(try SuspectRepository.suspect(from: rows, favorites: []))
    }
    return try suspects.enumerated().map { offset, suspect in
      var suspect = suspect
      suspect.favoriteFruits = try database.suspects.favoriteNames(of: suspect.id)
      return RankedSuspect(rank: offset + 1, suspect: suspect)
    }
  }
}
