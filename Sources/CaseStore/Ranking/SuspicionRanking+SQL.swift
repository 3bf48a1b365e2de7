import SQLiteKit

/// The SQL the plans share: the tie-break order and the scoring of each suspect against an
/// incident's clues (docs/ranking.md "The top-k plan").
extension SuspicionRanking {
  /// The ranking's tie-break order, served by the index `animals_rank_order`.
  static let rankOrder = "ORDER BY a.suspicion_level DESC, a.name_key, a.species_key, a.id"

  /// Every suspect in tie-break order with its clue verdicts (columns: id, paw_match,
  /// favorite_fruit, no_alibi, awake): the rows ``TopKWalk`` reads. Parameters:
  /// ``parameters(for:)``. Asleep means the time lies in [sleep, wake), wrapping past midnight
  /// when sleep is later than wake; equal means never.
  static let scoringSQL = "SELECT \(scoreColumns) FROM animals a \(rankOrder)"

  /// The whole ranking's order for ``FullSort``: score, then tie-break order, over
  /// ``verdictColumns`` selected with the suspects' columns
  /// (``SuspectRepository/forEachPage(orderBy:limit:size:_:)``). There is no `LIMIT`: with
  /// one, SQLite sorts into a temporary B-tree rather than its sorter, which for a million rows
  /// reads and writes the temporary file a page at a time; the reader stops after the limit
  /// instead.
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

  /// The parameters of ``scoringSQL`` and ``verdictColumns``: paw clue (or NULL), fruit id, the
  /// alibi white space, the incident's clock time `HH:MM`.
  static func parameters(for incident: Incident) -> [any SQLiteBindable] {
    [
      incident.pawSize?.rawValue, incident.fruitID, Suspect.alibiWhitespace,
      incident.occurredAt.time.description,
    ]
  }
}
