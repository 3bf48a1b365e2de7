import SQLiteKit

extension CaseDatabase {
  /// Stores the records of an import in one transaction: fruits, then suspects, then
  /// incidents (docs/export-format.md "Import").
  ///
  /// Fruits match stored fruits by name and suspects match by species, both ignoring case as
  /// the unique keys do. A record equal to the one it matches is unchanged; one that differs is
  /// a conflict, handled as `onConflict` says. Fields a suspect record leaves out stay as they
  /// are (a new suspect gets the defaults). Incidents have no key: one equal in every field to
  /// a stored incident is unchanged, any other is added. Two records of the file with the same
  /// key are refused. Favourites and incidents may name fruits stored before or imported here.
  ///
  /// - Parameters:
  ///   - document: The checked records (``CaseTransfer/parse(_:)``).
  ///   - onConflict: What to do with a record that differs from the stored one it matches.
  ///   - dryRun: Run every write and every check, report, then roll it all back.
  /// - Returns: What was (or, dry, would be) added, updated, unchanged and skipped.
  /// - Throws: ``CaseError/invalidRecord(record:field:problem:)`` for the first record that
  ///   cannot be stored (a conflict under `.fail`, an unknown fruit, a duplicate key in the
  ///   file), or `SQLiteError`. Nothing is stored then.
  public func importCase(
    _ document: CaseDocument, onConflict: ConflictPolicy, dryRun: Bool
  ) throws -> ImportReport {
    var report = ImportReport(dryRun: dryRun)
    do {
      try write {
        let importer = CaseImporter(database: self, policy: onConflict)
        report.fruits = try importer.importFruits(document.fruits)
        report.suspects = try importer.importSuspects(document.suspects)
        report.incidents = try importer.importIncidents(document.incidents)
        if dryRun { throw DryRunRollback() }
      }
    } catch is DryRunRollback {}
    return report
  }
}

/// Thrown at the end of a dry run so that ``CaseDatabase/write(_:)`` rolls everything back.
private struct DryRunRollback: Error {}

/// Applies the records of one import inside the caller's transaction.
struct CaseImporter {
  let database: CaseDatabase
  let policy: ConflictPolicy
  private var connection: Connection { database.connection }

  // MARK: - Fruits

  func importFruits(_ fruits: [ImportedFruit]) throws -> ImportReport.Counts {
    var counts = ImportReport.Counts()
    var seen: [String: String] = [:]
    for fruit in fruits {
      let key = NameKey.caseKey(fruit.name)
      if let first = seen[key] {
        throw CaseError.invalidRecord(
          record: fruit.record, field: "name", problem: "the same fruit as \(first)")
      }
      seen[key] = fruit.record
      let stored: Fruit?
      do {
        stored = try database.fruits.find(fruit.name)
      } catch CaseError.unknownFruit {
        stored = nil
      } catch let error as CaseError {
        throw CaseError.invalidRecord(
          record: fruit.record, field: "name", problem: error.description)
      }
      guard let stored else {
        try writeFruit(fruit, id: nil)
        counts.added += 1
        continue
      }
      if same(stored.name, fruit.name) && stored.color == fruit.color {
        counts.unchanged += 1
      } else if try resolve(fruit.record, field: "name", "a fruit named '\(stored.name)'") {
        try writeFruit(fruit, id: stored.id)
        counts.updated += 1
      } else {
        counts.skipped += 1
      }
    }
    return counts
  }

  private func writeFruit(_ fruit: ImportedFruit, id: Int64?) throws {
    let key = NameKey.caseKey(fruit.name)
    let foldedFrom = NameKey.foldedFrom(fruit.name)
    if let id {
      try database.statement(
        "UPDATE fruits SET name = ?, color = ?, name_key = ?, name_folded_from = ? WHERE id = ?"
      ).run([fruit.name, fruit.color, key, foldedFrom, id])
      return
    }
    try database.statement(
      "INSERT INTO fruits (name, color, name_key, name_folded_from) VALUES (?, ?, ?, ?)"
    ).run([fruit.name, fruit.color, key, foldedFrom])
  }

  // MARK: - Suspects

  func importSuspects(_ suspects: [ImportedSuspect]) throws -> ImportReport.Counts {
    var counts = ImportReport.Counts()
    var seen: [String: String] = [:]
    var fruitIDs: [String: Int64] = [:]
    let findSpecies = try database.statement("SELECT id FROM animals WHERE species_key = ?")
    // Rows whose keys nobody vouches for (a Unicode duplicate another client stored) are not
    // under the unique index's eye: found by their species folded in Swift.
    var unvouched: [String: Int64] = [:]
    for row in try database.suspects.unvouchedRows() {
      unvouched[NameKey.caseKey(row.species)] = unvouched[NameKey.caseKey(row.species)] ?? row.id
    }
    for suspect in suspects {
      let key = NameKey.caseKey(suspect.species)
      if let first = seen[key] {
        throw CaseError.invalidRecord(
          record: suspect.record, field: "species", problem: "the same species as \(first)")
      }
      seen[key] = suspect.record
      var favorites: [Int64]?
      if let names = suspect.favoriteFruits {
        favorites = try names.enumerated().map { index, name in
          if let id = fruitIDs[name] { return id }
          let id = try CaseTransfer.checked(
            record: suspect.record, field: "favorite_fruits[\(index)]"
          ) { try database.fruits.find(name).id }
          fruitIDs[name] = id
          return id
        }
        if let repeated = favorites?.enumerated().first(where: {
          favorites!.prefix($0.offset).contains($0.element)
        }) {
          throw CaseError.invalidRecord(
            record: suspect.record, field: "favorite_fruits[\(repeated.offset)]",
            problem: "'\(CaseError.shown(names[repeated.offset]))' is listed twice")
        }
      }
      findSpecies.reset()
      try findSpecies.bind([key])
      let storedID = try findSpecies.nextRow().map { try $0.int64("id") } ?? unvouched[key]
      findSpecies.reset()
      guard let storedID, let stored = try database.suspects.suspect(id: storedID) else {
        try insertSuspect(suspect, favorites: favorites ?? [])
        counts.added += 1
        continue
      }
      if isUnchanged(stored, suspect) {
        counts.unchanged += 1
      } else if try resolve(
        suspect.record, field: "species",
        "a suspect of species '\(stored.species)' (\(stored.name), id \(stored.id))")
      {
        try updateSuspect(stored, with: suspect, favorites: favorites)
        counts.updated += 1
      } else {
        counts.skipped += 1
      }
    }
    return counts
  }

  private func isUnchanged(_ stored: Suspect, _ new: ImportedSuspect) -> Bool {
    same(stored.name, new.name) && same(stored.species, new.species)
      && stored.pawSize == new.pawSize
      && (new.emoji.map { same(stored.emoji ?? "", $0 ?? "") } ?? true)
      && (new.favoriteFruits.map { names in
        names.count == stored.favoriteFruits.count
          && zip(names, stored.favoriteFruits).allSatisfy {
            NameKey.caseKey($0) == NameKey.caseKey($1)
          }
      } ?? true)
      && (new.alibi.map { same(stored.alibi, $0) } ?? true)
      && (new.sleepSchedule.map { stored.sleepSchedule == $0 } ?? true)
      && (new.suspicionLevel.map { stored.suspicionLevel == $0 } ?? true)
  }

  private func insertSuspect(_ suspect: ImportedSuspect, favorites: [Int64]) throws {
    try database.statement(
      """
      INSERT INTO animals (name, species, paw_size, emoji, species_key, species_folded_from,
        name_key, name_folded_from)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      """
    ).run([
      suspect.name, suspect.species, suspect.pawSize.rawValue, suspect.emoji ?? nil,
      NameKey.caseKey(suspect.species), NameKey.foldedFrom(suspect.species),
      NameKey.sortKey(suspect.name), NameKey.foldedFrom(suspect.name),
    ])
    let id = connection.lastInsertRowID
    try writeInterview(id: id, suspect, favorites: favorites)
  }

  private func updateSuspect(
    _ stored: Suspect, with suspect: ImportedSuspect, favorites: [Int64]?
  ) throws {
    let emoji = suspect.emoji ?? stored.emoji
    try database.statement(
      """
      UPDATE animals SET name = ?, species = ?, paw_size = ?, emoji = ?, species_key = ?,
        species_folded_from = ?, name_key = ?, name_folded_from = ?
      WHERE id = ?
      """
    ).run([
      suspect.name, suspect.species, suspect.pawSize.rawValue, emoji,
      NameKey.caseKey(suspect.species), NameKey.foldedFrom(suspect.species),
      NameKey.sortKey(suspect.name), NameKey.foldedFrom(suspect.name), stored.id,
    ])
    try writeInterview(id: stored.id, suspect, favorites: favorites)
  }

  /// Favourites (replaced when given), alibi, sleep schedule and level, each when given.
  private func writeInterview(id: Int64, _ suspect: ImportedSuspect, favorites: [Int64]?) throws {
    if let favorites {
      try database.statement("DELETE FROM favorite_fruits WHERE animal_id = ?").run([id])
      let insert = try database.statement(
        "INSERT INTO favorite_fruits (animal_id, fruit_id, position) VALUES (?, ?, ?)")
      for (position, fruit) in favorites.enumerated() {
        try insert.run([id, fruit, Int64(position)])
      }
    }
    if let alibi = suspect.alibi {
      if alibi.isEmpty {
        try database.statement("DELETE FROM alibis WHERE animal_id = ?").run([id])
      } else {
        try database.statement(
          """
          INSERT INTO alibis (animal_id, statement) VALUES (?, ?)
          ON CONFLICT (animal_id) DO UPDATE SET statement = excluded.statement
          """
        ).run([id, alibi])
      }
    }
    if let schedule = suspect.sleepSchedule {
      if let schedule {
        try database.statement(
          """
          INSERT INTO sleep_schedules (animal_id, sleep_at, wake_at) VALUES (?, ?, ?)
          ON CONFLICT (animal_id) DO UPDATE SET sleep_at = excluded.sleep_at,
            wake_at = excluded.wake_at
          """
        ).run([id, schedule.sleep.description, schedule.wake.description])
      } else {
        try database.statement("DELETE FROM sleep_schedules WHERE animal_id = ?").run([id])
      }
    }
    if let level = suspect.suspicionLevel {
      try database.statement(
        """
        INSERT INTO suspicion_levels (animal_id, level) VALUES (?, ?)
        ON CONFLICT (animal_id) DO UPDATE SET level = excluded.level
        """
      ).run([id, level.value])
    }
  }

  // MARK: - Incidents

  func importIncidents(_ incidents: [ImportedIncident]) throws -> ImportReport.Counts {
    var counts = ImportReport.Counts()
    let existing = try database.statement(
      """
      SELECT 1 FROM incidents WHERE fruit_id = ? AND occurred_at = ? AND paw_size IS ?
        AND latitude IS ? AND longitude IS ? AND notes = ?
      """)
    let insert = try database.statement(
      """
      INSERT INTO incidents (fruit_id, occurred_at, paw_size, latitude, longitude, notes)
      VALUES (?, ?, ?, ?, ?, ?)
      """)
    for incident in incidents {
      let fruit = try CaseTransfer.checked(record: incident.record, field: "fruit") {
        try database.fruits.find(incident.fruit)
      }
      let values: [any SQLiteBindable] = [
        fruit.id, incident.occurredAt.description, incident.pawSize?.rawValue,
        incident.location?.latitude, incident.location?.longitude, incident.notes,
      ]
      existing.reset()
      try existing.bind(values)
      let found = try existing.nextRow() != nil
      existing.reset()
      if found {
        counts.unchanged += 1
      } else {
        try insert.run(values)
        counts.added += 1
      }
    }
    return counts
  }

  // MARK: - Helpers

  /// For a record that differs from the stored one it matches: `true` to update, `false` to
  /// skip, or the error `.fail` asks for.
  private func resolve(_ record: String, field: String, _ stored: String) throws -> Bool {
    switch policy {
    case .update: return true
    case .skip: return false
    case .fail:
      throw CaseError.invalidRecord(
        record: record, field: field,
        problem: "\(stored) is already stored and differs; use --on-conflict skip or update")
    }
  }
}

/// Equal scalar for scalar: `é` and `e` + U+0301 differ (Swift's `==` would call them equal).
private func same(_ a: String, _ b: String) -> Bool {
  a.unicodeScalars.elementsEqual(b.unicodeScalars)
}
