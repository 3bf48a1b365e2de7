import CSQLite
import CaseStore

/// Hand-written C API inserts of suspects: the `insert` baseline, and the fast path that builds
/// the large datasets.
///
/// Fairness: it writes exactly the column values ``SuspectRepository/add(contentsOf:)`` writes,
/// including the folded key columns, which it computes with the same functions (`NameKey`,
/// package access), since a hand-written program must store them too; fruit ids come from one
/// query into a dictionary, as ours caches them. What it skips is ours alone to pay for:
/// validation, trimming, the checks for rows keyed by other tools, and SQLiteKit's wrappers.
final class RawSuspectWriter {
  let raw: RawSQLite
  private let insertAnimal: OpaquePointer
  private let insertFavorite: OpaquePointer
  private let insertAlibi: OpaquePointer
  private let insertSleep: OpaquePointer
  private let insertLevel: OpaquePointer
  private var fruitIDs: [String: Int64] = [:]

  init(_ raw: RawSQLite) {
    self.raw = raw
    insertAnimal = raw.prepare(
      """
      INSERT INTO animals (name, species, paw_size, emoji, species_key, species_folded_from,
        name_key, name_folded_from)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      """)
    insertFavorite = raw.prepare(
      "INSERT INTO favorite_fruits (animal_id, fruit_id, position) VALUES (?, ?, ?)")
    insertAlibi = raw.prepare("INSERT INTO alibis (animal_id, statement) VALUES (?, ?)")
    insertSleep = raw.prepare(
      "INSERT INTO sleep_schedules (animal_id, sleep_at, wake_at) VALUES (?, ?, ?)")
    insertLevel = raw.prepare("INSERT INTO suspicion_levels (animal_id, level) VALUES (?, ?)")
    let fruits = raw.prepare("SELECT name, id FROM fruits")
    while sqlite3_step(fruits) == SQLITE_ROW {
      fruitIDs[columnText(fruits, 0)] = sqlite3_column_int64(fruits, 1)
    }
    sqlite3_finalize(fruits)
  }

  deinit {
    for statement in [
      insertAnimal, insertFavorite, insertAlibi, insertSleep, insertLevel,
    ] {
      sqlite3_finalize(statement)
    }
  }

  /// Inserts one suspect's identity and favourites; returns its id.
  @discardableResult
  func write(_ suspect: NewSuspect) -> Int64 {
    bindText(insertAnimal, 1, suspect.name)
    bindText(insertAnimal, 2, suspect.species)
    bindText(insertAnimal, 3, suspect.pawSize.rawValue)
    bindOptionalText(insertAnimal, 4, suspect.emoji)
    // Each key with the text it was folded from (none for printable ASCII, which lower()
    // folds): the schema's key triggers then leave the row alone, as for inspector's writes.
    bindText(insertAnimal, 5, NameKey.caseKey(suspect.species))
    bindOptionalText(insertAnimal, 6, NameKey.foldedFrom(suspect.species))
    bindText(insertAnimal, 7, NameKey.sortKey(suspect.name))
    bindOptionalText(insertAnimal, 8, NameKey.foldedFrom(suspect.name))
    raw.run(insertAnimal)
    let id = sqlite3_last_insert_rowid(raw.handle)
    for (position, fruit) in suspect.favoriteFruits.enumerated() {
      guard let fruitID = fruitIDs[fruit] else { fatalError("unknown fruit \(fruit)") }
      sqlite3_bind_int64(insertFavorite, 1, id)
      sqlite3_bind_int64(insertFavorite, 2, fruitID)
      sqlite3_bind_int64(insertFavorite, 3, Int64(position))
      raw.run(insertFavorite)
    }
    return id
  }

  /// Inserts one suspect with its interview rows (the dataset builder).
  func write(_ suspect: GeneratedSuspect) {
    let id = write(suspect.identity)
    if let alibi = suspect.alibi {
      sqlite3_bind_int64(insertAlibi, 1, id)
      bindText(insertAlibi, 2, alibi)
      raw.run(insertAlibi)
    }
    if let schedule = suspect.sleepSchedule {
      sqlite3_bind_int64(insertSleep, 1, id)
      bindText(insertSleep, 2, schedule.sleep)
      bindText(insertSleep, 3, schedule.wake)
      raw.run(insertSleep)
    }
    if let level = suspect.level {
      sqlite3_bind_int64(insertLevel, 1, id)
      sqlite3_bind_double(insertLevel, 2, level)
      raw.run(insertLevel)
    }
  }
}
