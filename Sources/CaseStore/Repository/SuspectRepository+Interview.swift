import SQLiteKit

extension SuspectRepository where Kind == Writing {
  /// Sets suspect `id`'s alibi; empty text clears it (docs/schema.md "The interview": a missing
  /// row is no alibi).
  ///
  /// - Parameters:
  ///   - id: The suspect's id.
  ///   - statement: Free text, may span lines; stored exactly; at most 100,000 characters.
  /// - Throws: ``CaseError/unknownSuspect(_:)``, ``CaseError/invalidValue(field:value:expected:)``
  ///   for over-long text or terminal control characters (tabs and line breaks are fine), or
  ///   `SQLiteError`.
  public func setAlibi(id: Int64, _ statement: String) throws {
    guard statement.unicodeScalars.count <= 100_000 else {
      throw CaseError.invalidValue(
        field: "alibi", value: statement, expected: "at most 100,000 characters")
    }
    try TextRules.requirePrintable(statement, field: "alibi", allowingLineBreaks: true)
    try requireSuspect(id)
    if statement.isEmpty {
      try database.execute("DELETE FROM alibis WHERE animal_id = ?", [id])
    } else {
      try database.execute(
        """
        INSERT INTO alibis (animal_id, statement) VALUES (?, ?)
        ON CONFLICT (animal_id) DO UPDATE SET statement = excluded.statement
        """, [id, statement])
    }
  }

  /// Sets or (with `nil`) clears suspect `id`'s sleep schedule.
  ///
  /// - Throws: ``CaseError/unknownSuspect(_:)`` or `SQLiteError`.
  public func setSleepSchedule(id: Int64, _ schedule: SleepSchedule?) throws {
    try requireSuspect(id)
    if let schedule {
      try database.execute(
        """
        INSERT INTO sleep_schedules (animal_id, sleep_at, wake_at) VALUES (?, ?, ?)
        ON CONFLICT (animal_id) DO UPDATE SET sleep_at = excluded.sleep_at,
          wake_at = excluded.wake_at
        """, [id, schedule.sleep.description, schedule.wake.description])
    } else {
      try database.execute("DELETE FROM sleep_schedules WHERE animal_id = ?", [id])
    }
  }

  /// Gives suspect `id` the standard 22:30-06:30 schedule unless it already has one
  /// (`sleep <animal>` without options, docs/command-line.md "sleep").
  ///
  /// - Returns: The schedule the suspect has afterwards.
  /// - Throws: ``CaseError/unknownSuspect(_:)`` or `SQLiteError`.
  @discardableResult
  public func addStandardSleepScheduleIfMissing(id: Int64) throws -> SleepSchedule {
    guard let suspect = try suspect(id: id) else { throw CaseError.unknownSuspect("\(id)") }
    if let existing = suspect.sleepSchedule { return existing }
    try setSleepSchedule(id: id, .standard)
    return .standard
  }

  /// Sets suspect `id`'s suspicion level.
  ///
  /// - Throws: ``CaseError/unknownSuspect(_:)`` or `SQLiteError`.
  public func setSuspicionLevel(id: Int64, _ level: SuspicionLevel) throws {
    try requireSuspect(id)
    try database.execute(
      """
      INSERT INTO suspicion_levels (animal_id, level) VALUES (?, ?)
      ON CONFLICT (animal_id) DO UPDATE SET level = excluded.level
      """, [id, level.value])
  }

  /// Appends `fruitName` to suspect `id`'s favourites (after the last one).
  ///
  /// - Throws: ``CaseError/unknownSuspect(_:)``, ``CaseError/unknownFruit(_:)``,
  ///   ``CaseError/alreadyFavorite(suspect:fruit:)``, or `SQLiteError`.
  public func addFavorite(id: Int64, fruit fruitName: String) throws {
    let suspect = try requireSuspect(id)
    let fruit = try database.unit.fruits.find(fruitName)
    if try database.scalar(
      "SELECT 1 FROM favorite_fruits WHERE animal_id = ? AND fruit_id = ?", [id, fruit.id])
      != nil
    {
      throw CaseError.alreadyFavorite(suspect: suspect, fruit: fruit.name)
    }
    try database.execute(
      """
      INSERT INTO favorite_fruits (animal_id, fruit_id, position)
      VALUES (?, ?, (SELECT coalesce(max(position) + 1, 0) FROM favorite_fruits
                     WHERE animal_id = ?))
      """, [id, fruit.id, id])
  }

  /// Removes `fruitName` from suspect `id`'s favourites; the others keep their order.
  ///
  /// - Throws: ``CaseError/unknownSuspect(_:)``, ``CaseError/unknownFruit(_:)``,
  ///   ``CaseError/notFavorite(suspect:fruit:)``, or `SQLiteError`.
  public func removeFavorite(id: Int64, fruit fruitName: String) throws {
    let suspect = try requireSuspect(id)
    let fruit = try database.unit.fruits.find(fruitName)
    try database.execute(
      "DELETE FROM favorite_fruits WHERE animal_id = ? AND fruit_id = ?", [id, fruit.id])
    if database.connection.changes == 0 {
      throw CaseError.notFavorite(suspect: suspect, fruit: fruit.name)
    }
  }

  /// The suspect's name, or ``CaseError/unknownSuspect(_:)``.
  @discardableResult
  private func requireSuspect(_ id: Int64) throws -> String {
    guard
      let name = try database.scalar("SELECT name FROM animals WHERE id = ?", [id])?
        .textValue
    else { throw CaseError.unknownSuspect("\(id)") }
    return name
  }
}
