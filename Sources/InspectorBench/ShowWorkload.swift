import CSQLite
import CaseStore

/// `show`: one suspect's full record by species (`inspector show "species N"`), through
/// ``SuspectRepository/find(_:)``, against hand-written C API look-ups of the same record.
///
/// No target for the in-process ratio (README "Performance" sets one for the whole process, see
/// scripts/bench.sh); but every statement `find` runs is traced and must have a query plan
/// without a full scan, or the benchmark fails.
enum ShowWorkload {
  static let recordSQL = ListWorkload.suspectSelect + " WHERE a.id = ?"
  static let favoritesSQL = """
    SELECT f.name FROM favorite_fruits ff JOIN fruits f ON f.id = ff.fruit_id
    WHERE ff.animal_id = ? ORDER BY ff.position, f.id
    """

  static func run(
    path: String, suspects count: Int, repetitions: Int, log: (String) -> Void
  ) throws -> Measurement {
    let reference = "species \(count * 3 / 4 + 1)"
    try checkPlans(path: path, reference: reference, log: log)
    let reads = try ReadComparison(
      path: path, repetitions: repetitions, ours: { try $0.suspects.find(reference) },
      baseline: { try lookUp(reference, in: $0) })
    guard reads.oursResult != nil, reads.oursResult == reads.baselineResult else {
      throw BenchFailure(description: "show: ours and the baseline found different records")
    }
    return reads.measurement(workload: "show", suspects: count, target: nil)
  }

  /// The partial indexes over rows whose keys nobody vouches for (migration 0012).
  static let unvouchedRowIndexes = ["animals_unvouched_keys", "fruits_unvouched_keys"]

  /// Runs `find` with statement tracing, then `EXPLAIN QUERY PLAN` on each statement it ran.
  ///
  /// - Throws: ``BenchFailure`` when a plan scans a table instead of searching an index.
  static func checkPlans(path: String, reference: String, log: (String) -> Void) throws {
    let database = try CaseDatabase(path: path, access: .readOnly)
    var statements: [String] = []
    try database.connection.traceStatements { statements.append($0) }
    _ = try database.suspects.find(reference)
    try database.connection.traceStatements(nil)
    let raw = RawSQLite(path: path, readOnly: true)
    var scans: [String] = []
    for sql in statements {
      let plan = raw.prepare("EXPLAIN QUERY PLAN " + sql)
      defer { sqlite3_finalize(plan) }
      while sqlite3_step(plan) == SQLITE_ROW {
        let detail = columnText(plan, 3)
        // The partial indexes of unvouched rows hold only rows other clients wrote and
        // inspector has not re-folded yet (none in this dataset): reading them is no table scan.
        let unvouched = Self.unvouchedRowIndexes.contains {
          detail.hasSuffix("USING INDEX \($0)")
        }
        if detail.hasPrefix("SCAN") && !unvouched { scans.append("\(detail)  <-  \(sql)") }
      }
    }
    guard scans.isEmpty else {
      throw BenchFailure(
        description: "show: full scans in the look-up:\n  " + scans.joined(separator: "\n  "))
    }
    log("show: \(statements.count) statements, query plans without a full scan")
  }

  /// The hand-written look-up: species key, then the record, then the favourites.
  static func lookUp(_ reference: String, in raw: RawSQLite) throws -> Suspect? {
    let bySpecies = raw.prepare("SELECT id FROM animals WHERE species_key = ?")
    let record = raw.prepare(recordSQL)
    let favorites = raw.prepare(favoritesSQL)
    defer {
      for statement in [bySpecies, record, favorites] { sqlite3_finalize(statement) }
    }
    bindText(bySpecies, 1, NameKey.caseKey(reference))
    guard sqlite3_step(bySpecies) == SQLITE_ROW else { return nil }
    let id = sqlite3_column_int64(bySpecies, 0)
    sqlite3_bind_int64(record, 1, id)
    guard sqlite3_step(record) == SQLITE_ROW else { return nil }
    sqlite3_bind_int64(favorites, 1, id)
    var names: [String] = []
    while sqlite3_step(favorites) == SQLITE_ROW { names.append(columnText(favorites, 0)) }
    var schedule: SleepSchedule?
    if sqlite3_column_type(record, 6) != SQLITE_NULL, sqlite3_column_type(record, 7) != SQLITE_NULL
    {
      schedule = SleepSchedule(
        sleep: try ClockTime(parsing: columnText(record, 6)),
        wake: try ClockTime(parsing: columnText(record, 7)))
    }
    return Suspect(
      id: id, name: columnText(record, 1), species: columnText(record, 2),
      pawSize: PawSize(rawValue: columnText(record, 3)) ?? .small,
      emoji: sqlite3_column_type(record, 4) == SQLITE_NULL ? nil : columnText(record, 4),
      favoriteFruits: names, alibi: columnText(record, 5), sleepSchedule: schedule,
      suspicionLevel: SuspicionLevel(sqlite3_column_double(record, 8)) ?? .zero)
  }
}
