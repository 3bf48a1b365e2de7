import CSQLite
import CaseStore

/// `rank`: the top 20 suspects for incident 1 (`inspector rank --incident 1`), through
/// ``SuspicionRanking/rank(for:limit:)``, against the plain SQL a user would type into the
/// sqlite3 shell: score every suspect against the bulletin's clues, sort, keep 20.
///
/// Both must name the same 20 suspects in the same order; the benchmark fails otherwise.
enum RankWorkload {
  /// The plain query, as the C API baseline runs it. Parameters: the incident id, the characters
  /// an alibi may consist of and still count as none (``Suspect/alibiWhitespace``, as README "The
  /// ranking" defines it).
  static let plainSQL = plainSQL(incident: "?1", alibiWhitespace: "?2")

  /// The same query for the sqlite3 shell (`inspector-bench --rank-sql`, which scripts/bench.sh
  /// times against `inspector rank`): the incident and the white space written as literals.
  static var shellSQL: String {
    let codes = Suspect.alibiWhitespace.unicodeScalars.map { String($0.value) }
    return plainSQL(
      incident: "\(Dataset.incidentID)",
      alibiWhitespace: "char(\(codes.joined(separator: ", ")))") + ";"
  }

  /// The plain query with `incident` and `alibiWhitespace` as its SQL expressions.
  static func plainSQL(incident: String, alibiWhitespace: String) -> String {
    """
    WITH i AS (
      SELECT fruit_id, paw_size, substr(occurred_at, 12, 5) AS at FROM incidents
      WHERE id = \(incident)
    )
    SELECT a.id,
      coalesce(a.paw_size = i.paw_size, 0)
      + EXISTS (SELECT 1 FROM favorite_fruits ff
                WHERE ff.animal_id = a.id AND ff.fruit_id = i.fruit_id)
      + (trim(coalesce(al.statement, ''), \(alibiWhitespace)) = '')
      + NOT coalesce(CASE WHEN s.sleep_at < s.wake_at THEN i.at >= s.sleep_at AND i.at < s.wake_at
                          WHEN s.sleep_at > s.wake_at THEN i.at >= s.sleep_at OR i.at < s.wake_at
                          ELSE 0 END, 0) AS clues,
      coalesce(l.level, 0) AS level
    FROM animals a CROSS JOIN i
    LEFT JOIN alibis al ON al.animal_id = a.id
    LEFT JOIN sleep_schedules s ON s.animal_id = a.id
    LEFT JOIN suspicion_levels l ON l.animal_id = a.id
    ORDER BY clues DESC, level DESC, a.name_key, a.species_key, a.id
    LIMIT 20
    """
  }

  static func run(path: String, suspects count: Int, repetitions: Int, log: (String) -> Void)
    throws -> Measurement
  {
    let reads = try ReadComparison(
      path: path, repetitions: repetitions,
      ours: { db in
        let incident = try db.incidents.find(id: Dataset.incidentID)
        return try db.ranking.rank(for: incident, limit: 20)
          .map(\.suspect.id)
      },
      baseline: { plainTop20($0) })
    let (oursIDs, baselineIDs) = (reads.oursResult ?? [], reads.baselineResult ?? [])
    guard oursIDs.count == 20, oursIDs == baselineIDs else {
      throw BenchFailure(
        description: "rank: the top 20 differ\n  ours:     \(oursIDs)\n  baseline: \(baselineIDs)")
    }
    log("rank: same top 20 as the plain SQL: \(oursIDs)")
    return reads.measurement(workload: "rank", suspects: count, target: 0.10)
  }

  /// Runs ``plainSQL`` and returns the ids, reading each row's columns as a program would.
  static func plainTop20(_ raw: RawSQLite) -> [Int64] {
    let statement = raw.prepare(plainSQL)
    defer { sqlite3_finalize(statement) }
    sqlite3_bind_int64(statement, 1, Dataset.incidentID)
    bindText(statement, 2, Suspect.alibiWhitespace)
    var ids: [Int64] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      ids.append(sqlite3_column_int64(statement, 0))
      _ = (sqlite3_column_int64(statement, 1), sqlite3_column_double(statement, 2))
    }
    return ids
  }
}
