import CSQLite
import CaseStore

/// `list`: every suspect with favourites and interview, as `inspector list` reads them
/// (``SuspectRepository/all()``), against hand-written C API reads building the same values.
///
/// Fairness: the baseline runs the same two queries (identities and interviews; favourites in
/// order), merges them by id, and builds the same `Suspect` values, which are compared once.
/// Both sides open their connection outside the timing and prepare their statements inside it.
enum ListWorkload {
  /// The baselines' hand-written suspect query (identity and interview), without its ending;
  /// `show` adds a `WHERE`, `list` an `ORDER BY`.
  static let suspectSelect = """
    SELECT a.id, a.name, a.species, a.paw_size, a.emoji, coalesce(al.statement, ''),
      s.sleep_at, s.wake_at, coalesce(l.level, 0.0)
    FROM animals a
    LEFT JOIN alibis al ON al.animal_id = a.id
    LEFT JOIN sleep_schedules s ON s.animal_id = a.id
    LEFT JOIN suspicion_levels l ON l.animal_id = a.id
    """
  static let suspectsSQL = suspectSelect + " ORDER BY a.id"
  static let favoritesSQL = """
    SELECT ff.animal_id, f.name FROM favorite_fruits ff JOIN fruits f ON f.id = ff.fruit_id
    ORDER BY ff.animal_id, ff.position, f.id
    """

  static func run(path: String, suspects count: Int, repetitions: Int, log: (String) -> Void)
    throws -> Measurement
  {
    let reads = try ReadComparison(
      path: path, repetitions: repetitions, ours: { try $0.suspects.all() },
      baseline: { try read($0) })
    guard reads.oursResult?.count == count, reads.oursResult == reads.baselineResult else {
      throw BenchFailure(description: "list: ours and the baseline read different suspects")
    }
    return reads.measurement(workload: "list", suspects: count, target: 1.25)
  }

  /// The hand-written reader.
  static func read(_ raw: RawSQLite) throws -> [Suspect] {
    let favorites = raw.prepare(favoritesSQL)
    let rows = raw.prepare(suspectsSQL)
    defer {
      sqlite3_finalize(favorites)
      sqlite3_finalize(rows)
    }
    var result: [Suspect] = []
    var hasFavorite = sqlite3_step(favorites) == SQLITE_ROW
    while sqlite3_step(rows) == SQLITE_ROW {
      let id = sqlite3_column_int64(rows, 0)
      var names: [String] = []
      while hasFavorite, sqlite3_column_int64(favorites, 0) <= id {
        if sqlite3_column_int64(favorites, 0) == id { names.append(columnText(favorites, 1)) }
        hasFavorite = sqlite3_step(favorites) == SQLITE_ROW
      }
      var schedule: SleepSchedule?
      if sqlite3_column_type(rows, 6) != SQLITE_NULL, sqlite3_column_type(rows, 7) != SQLITE_NULL {
        schedule = SleepSchedule(
          sleep: try ClockTime(parsing: columnText(rows, 6)),
          wake: try ClockTime(parsing: columnText(rows, 7)))
      }
      let emoji = sqlite3_column_type(rows, 4) == SQLITE_NULL ? nil : columnText(rows, 4)
      result.append(
        Suspect(
          id: id, name: columnText(rows, 1), species: columnText(rows, 2),
          pawSize: PawSize(rawValue: columnText(rows, 3)) ?? .small, emoji: emoji,
          favoriteFruits: names, alibi: columnText(rows, 5), sleepSchedule: schedule,
          suspicionLevel: SuspicionLevel(sqlite3_column_double(rows, 8)) ?? .zero))
    }
    return result
  }
}
