import SQLiteKit

extension SuspectRepository where Kind == Writing {
  /// Stores many new suspects with their favourites (default interviews) in one transaction;
  /// ``add(_:)`` is this for one suspect.
  ///
  /// Each suspect is validated, trimmed, keyed and stored exactly as ``add(_:)`` describes, in
  /// order (ids ascending), favourites at positions 0, 1, 2, ... For speed the two `INSERT`
  /// statements are prepared once and reused, each distinct fruit name is looked up once, and
  /// the stored suspects are not read back.
  ///
  /// - Parameter suspects: The new suspects.
  /// - Returns: Their new ids, in the order of `suspects`.
  /// - Throws: For the first suspect that fails, what ``add(_:)`` throws:
  ///   ``CaseError/invalidValue(field:value:expected:)``, ``CaseError/duplicateSpecies(_:)``
  ///   (also for a species given twice in `suspects`), ``CaseError/unknownFruit(_:)``,
  ///   ``CaseError/alreadyFavorite(suspect:fruit:)``, or `SQLiteError`. Nothing is stored then.
  @discardableResult
  public func add(contentsOf suspects: [NewSuspect]) throws -> [Int64] {
    try add(contentsOf: suspects, ids: nil)
  }

  /// ``add(contentsOf:)`` with the ids to store the suspects under (`revert` brings a removed
  /// suspect back under its id, docs/history.md "Revert"), or `nil` for new ids.
  ///
  /// - Parameter ids: One id per suspect, in the order of `suspects`, none of them taken (the
  ///   schema refuses a taken one: `SQLiteError`), or `nil`.
  @discardableResult
  func add(contentsOf suspects: [NewSuspect], ids given: [Int64]?) throws -> [Int64] {
    let unvouchedSpecies = try unvouchedSpeciesKeys()
    let insert = try database.statement(
      """
      INSERT INTO animals (id, name, species, paw_size, emoji, species_key,
        species_folded_from, name_key, name_folded_from)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    let addFavorite = try database.statement(
      "INSERT INTO favorite_fruits (animal_id, fruit_id, position) VALUES (?, ?, ?)")
    var fruits: [String: Fruit] = [:]
    var ids: [Int64] = []
    ids.reserveCapacity(suspects.count)
    var stored: [Int64] = []  // this suspect's fruit ids so far, reused across suspects
    for (index, new) in suspects.enumerated() {
      try Self.validate(text: new.name, field: "name")
      try Self.validate(text: new.species, field: "species")
      let name = new.name.trimmingSpaces()
      let species = new.species.trimmingSpaces()
      let emoji = try Self.validated(emoji: new.emoji)
      let speciesKey = NameKey.caseKey(species)
      if unvouchedSpecies.contains(speciesKey) { throw CaseError.duplicateSpecies(species) }
      do {
        try insert.run([
          given?[index], name, species, new.pawSize.rawValue, emoji, speciesKey,
          NameKey.foldedFrom(species),
          NameKey.sortKey(name), NameKey.foldedFrom(name),
        ])
      } catch let error as SQLiteError where error.extendedCode == .constraintUnique {
        throw try caseError(for: error, species: species, except: nil)
      }
      let id = database.connection.lastInsertRowID
      stored.removeAll(keepingCapacity: true)
      for fruitName in new.favoriteFruits {
        let fruit: Fruit
        if let known = fruits[fruitName] {
          fruit = known
        } else {
          fruit = try database.unit.fruits.find(fruitName)
          fruits[fruitName] = fruit
        }
        guard !stored.contains(fruit.id) else {
          throw CaseError.alreadyFavorite(suspect: name, fruit: fruit.name)
        }
        try addFavorite.run([id, fruit.id, Int64(stored.count)])
        stored.append(fruit.id)
      }
      ids.append(id)
    }
    return ids
  }
}
