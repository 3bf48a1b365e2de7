import SQLiteKit

/// A suspect as the suspect queries select it: the column list and its reader, sharing names.
///
/// Columns are resolved once per statement, so that reading the whole table (`list`) looks no
/// name up per row.
struct SuspectRow {
  // MARK: - Properties

  /// A favourite's fruit name, or `(missing fruit id N)` when another client deleted the fruit
  /// with foreign keys off: the favourite is shown, flagged, never hidden (`check` reports it).
  static let favoriteName = "coalesce(f.name, '(missing fruit id ' || ff.fruit_id || ')')"
  static let joins = "FROM animals a \(interviewJoins)"
  /// The joins of ``joins`` after `animals a`: the interview tables, by suspect id.
  static let interviewJoins = """
    LEFT JOIN alibis al ON al.animal_id = a.id
    LEFT JOIN sleep_schedules s ON s.animal_id = a.id
    LEFT JOIN suspicion_levels l ON l.animal_id = a.id
    """

  /// The columns every suspect query selects (from ``joins``), each named as
  /// the column it comes from.
  static let columns = """
    a.id AS id, a.name AS name, a.species AS species, a.paw_size AS paw_size, a.emoji AS emoji,
    coalesce(al.statement, '') AS statement, s.sleep_at AS sleep_at, s.wake_at AS wake_at,
    coalesce(l.level, 0.0) AS level
    """
  /// The tables of the columns that are not in `animals`.
  static let tables = [
    "statement": "alibis", "sleep_at": "sleep_schedules", "wake_at": "sleep_schedules",
    "level": "suspicion_levels",
  ]

  let id: Column
  let name: Column
  let species: Column
  let pawSize: Column
  let emoji: Column
  let alibi: Column
  let sleepAt: Column
  let wakeAt: Column
  let level: Column

  // MARK: - Init

  /// Resolves the columns of a statement that selects ``columns``.
  ///
  /// - Throws: `RowDecodingError` when it does not (a defect of the query).
  init(_ statement: Statement) throws {
    id = try statement.column("id")
    name = try statement.column("name")
    species = try statement.column("species")
    pawSize = try statement.column("paw_size")
    emoji = try statement.column("emoji")
    alibi = try statement.column("statement")
    sleepAt = try statement.column("sleep_at")
    wakeAt = try statement.column("wake_at")
    level = try statement.column("level")
  }

  // MARK: - Reading

  /// The suspect in `row`, with `favorites`.
  ///
  /// - Throws: ``CaseError/invalidStoredValue(table:id:column:value:expected:)`` for a stored
  ///   value outside the domain or of the wrong type.
  func suspect(from row: Row, favorites: [String]) throws -> Suspect {
    let id = try row.int64(self.id)
    return try StoredRow.read("animals", tables: Self.tables, id: id) {
      var schedule: SleepSchedule?
      if let sleep = try row.optionalText(sleepAt), let wake = try row.optionalText(wakeAt) {
        func time(_ text: String, column: String) throws -> ClockTime {
          do {
            return try ClockTime(parsing: text, field: column)
          } catch {
            throw CaseError.invalidStoredValue(
              table: "sleep_schedules", id: id, column: column, value: "'\(text)'",
              expected: "a time HH:MM")
          }
        }
        schedule = SleepSchedule(
          sleep: try time(sleep, column: "sleep_at"), wake: try time(wake, column: "wake_at"))
      }
      let pawText = try row.text(pawSize)
      guard let pawSize = PawSize(rawValue: pawText) else {
        throw CaseError.invalidStoredValue(
          table: "animals", id: id, column: "paw_size", value: "'\(pawText)'",
          expected: "small, medium or large")
      }
      let levelValue = try row.double(level)
      guard let level = SuspicionLevel(levelValue) else {
        throw CaseError.invalidStoredValue(
          table: "suspicion_levels", id: id, column: "level", value: "\(levelValue)",
          expected: "a number from 0 to 1")
      }
      return Suspect(
        id: id, name: try row.text(name), species: try row.text(species), pawSize: pawSize,
        emoji: try row.optionalText(emoji), favoriteFruits: favorites, alibi: try row.text(alibi),
        sleepSchedule: schedule, suspicionLevel: level)
    }
  }
}
