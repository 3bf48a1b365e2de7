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
/// outrank them. Memory is bounded by `limit` per score, whatever the number of suspects. In the
/// worst case (fewer than `limit` suspects match every clue) the walk reads every suspect once.
public struct SuspicionRanking {
  // MARK: - Properties

  let database: CaseDatabase

  // MARK: - Init

  /// Creates a ranking over `database`.
  public init(database: CaseDatabase) {
    self.database = database
  }

  // MARK: - Public API

  /// The top `limit` suspects by suspicion level (no incident).
  ///
  /// - Parameter limit: How many rows at most (README "A short tour": 20 by default); `nil` for all.
  /// - Throws: `SQLiteError` when the database cannot be read.
  public func bySuspicionLevel(limit: Int? = 20) throws -> [RankedSuspect] {
    let rows = try database.statement(
      "SELECT a.id AS id FROM animals a \(Self.rankOrder) LIMIT ?")
    try rows.bind([Int64(limit ?? -1)])
    let id = try rows.column("id")
    var ids: [Int64] = []
    while let row = try rows.nextRow() { ids.append(try row.int64(id)) }
    return try database.suspects.suspects(ids: ids).enumerated().map { offset, suspect in
      RankedSuspect(rank: offset + 1, suspect: suspect, clues: [])
    }
  }

  /// The top `limit` suspects for an incident's clues (README "The ranking").
  ///
  /// - Parameters:
  ///   - incident: The incident whose clues are checked.
  ///   - limit: How many rows at most (20 by default); `nil` for all.
  /// - Throws: `SQLiteError` when the database cannot be read.
  public func rank(for incident: Incident, limit: Int? = 20) throws -> [RankedSuspect] {
    let rows = try database.statement(Self.scoringSQL)
    try rows.bind([
      incident.pawSize?.rawValue, incident.fruitID, Suspect.alibiWhitespace,
      incident.occurredAt.time.description,
    ])
    let id = try rows.column("id")
    let checked: [(clue: Clue, column: Column)] = try Clue.allCases
      .filter { $0 != .pawSize || incident.pawSize != nil }
      .map { clue in
        let name =
          switch clue {
          case .pawSize: "paw_size"
          case .favoriteFruit: "favorite_fruit"
          case .noAlibi: "no_alibi"
          case .awake: "awake"
          }
        return (clue, try rows.column(name))
      }
    let best = checked.count
    let cap = limit ?? Int.max
    // buckets[score]: the first `cap` suspects with that score, in walk (tie-break) order.
    var buckets = [[(id: Int64, verdicts: [ClueVerdict])]](repeating: [], count: best + 1)
    while let row = try rows.nextRow() {
      var verdicts: [ClueVerdict] = []
      verdicts.reserveCapacity(best)
      for (clue, column) in checked {
        verdicts.append(ClueVerdict(clue: clue, matched: try row.int64(column) != 0))
      }
      let score = verdicts.filter(\.matched).count
      if buckets[score].count < cap { buckets[score].append((try row.int64(id), verdicts)) }
      if buckets[best].count >= cap { break }
    }
    let top = Array(buckets.reversed().joined().prefix(cap))
    let suspects = try database.suspects.suspects(ids: top.map(\.id))
    return zip(top, suspects).enumerated().map { offset, pair in
      RankedSuspect(rank: offset + 1, suspect: pair.1, clues: pair.0.verdicts)
    }
  }

  // MARK: - Internal helpers

  /// The ranking's tie-break order, served by the index `animals_rank_order`.
  static let rankOrder = "ORDER BY a.suspicion_level DESC, a.name_key, a.species_key, a.id"

  /// Every suspect in tie-break order with its clue verdicts (columns: id, paw_size,
  /// favorite_fruit, no_alibi, awake). Parameters: paw clue (or NULL), fruit id, the alibi
  /// whitespace characters, the incident's clock time `HH:MM`. Asleep means the time lies in
  /// [sleep, wake), wrapping past midnight when sleep is later than wake; equal means never.
  static let scoringSQL = """
    SELECT a.id AS id,
      coalesce(a.paw_size = ?1, 0) AS paw_size,
      EXISTS (SELECT 1 FROM favorite_fruits ff WHERE ff.animal_id = a.id AND ff.fruit_id = ?2)
        AS favorite_fruit,
      NOT EXISTS (SELECT 1 FROM alibis al
                  WHERE al.animal_id = a.id AND trim(al.statement, ?3) <> '') AS no_alibi,
      NOT EXISTS (SELECT 1 FROM sleep_schedules s WHERE s.animal_id = a.id AND
        CASE WHEN s.sleep_at < s.wake_at THEN ?4 >= s.sleep_at AND ?4 < s.wake_at
             WHEN s.sleep_at > s.wake_at THEN ?4 >= s.sleep_at OR ?4 < s.wake_at
             ELSE 0 END) AS awake
    FROM animals a
    \(rankOrder)
    """
}
