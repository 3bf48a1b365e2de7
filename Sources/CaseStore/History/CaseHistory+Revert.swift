import SQLiteKit

extension CaseHistory {
  /// What ``CaseTransaction/revert(suspect:asOf:)`` did.
  public struct Revert: Sendable, Equatable {
    /// The suspect as stored afterwards.
    public let suspect: Suspect
    /// The change set the suspect was brought back to (as it stood right after it).
    public let asOf: Int64
    /// The change set that records the revert, or `nil` when the suspect already stood as it
    /// did then (nothing was changed).
    public let changeSet: Int64?
    /// Whether the suspect had been removed and was brought back under its id.
    public let restored: Bool
  }
}

extension CaseTransaction where Kind == Writing {
  /// Brings suspect `id` back to how it stood right after the change set `point` names
  /// (docs/history.md "Revert"), inside this unit of work, whose change set records it (note
  /// `revert of Name the Species (id N) to change set M` unless the unit's attribution gives
  /// one): its identity (name, species, paw size, emoji), its favourites in their order of
  /// then, and its interview (alibi, sleep schedule, suspicion level; a missing row of then is
  /// the field's default). A suspect removed since is added again under its id.
  ///
  /// The suspect of then is read from the case rebuilt as of that change set
  /// (``CaseHistory/rebuiltCase(asOf:)``); it is written back through the repositories' own
  /// operations (edit, favourites added, removed and moved, alibi, sleep schedule, suspicion
  /// level), each only where the value differs, so their validation applies and a suspect
  /// that already stands as it did then is left untouched. Favourites come back in their order
  /// of then, numbered 0, 1, 2, ... when the order differs from today's.
  ///
  /// - Parameters:
  ///   - id: The suspect's id (it may be one removed since).
  ///   - point: A change set id, or a time as ``CaseHistory/utcTime(parsing:)`` reads it
  ///     (``CaseHistory/changeSet(asOf:)``).
  /// - Returns: The suspect afterwards, the change set reverted to, and the revert's own change
  ///   set (`nil` when nothing changed).
  /// - Throws: ``CaseError/revertRefused(suspect:changeSet:problem:)`` when the suspect did not
  ///   exist then, when a favourite fruit of then no longer exists, or when a value of then
  ///   is refused now (its species is another suspect's, a text breaks today's rules: the
  ///   repository's error is the problem); what ``CaseHistory/changeSet(asOf:)`` and
  ///   ``CaseHistory/rebuiltCase(asOf:)`` throw; `SQLiteError`. The unit rolls back then.
  public func revert(suspect id: Int64, asOf point: String) throws -> CaseHistory.Revert {
    let running = try history.currentChangeSet()
    let target = try history.changeSet(asOf: point, excluding: running)
    let rebuilt = try history.rebuiltCase(asOf: target)
    let (then, favorites) = try rebuilt.read { reader in
      (try reader.suspects.suspect(id: id), try Self.favoriteFruits(of: id, reader.connection))
    }
    let now = try suspects.suspect(id: id)
    func named(_ suspect: Suspect) -> String {
      "\(suspect.name) the \(suspect.species) (id \(id))"
    }
    guard let then else {
      throw CaseError.revertRefused(
        suspect: now.map(named) ?? "suspect id \(id)", changeSet: target,
        problem: "it did not exist then")
    }
    let name = named(then)
    func refused(_ problem: String) -> CaseError {
      CaseError.revertRefused(suspect: name, changeSet: target, problem: problem)
    }
    var names: [String] = []
    for favorite in favorites {
      guard
        let current = try connection.scalar(
          "SELECT name FROM fruits WHERE id = ?", [favorite.id])?.textValue
      else {
        throw refused(
          "its favourite \(favorite.name.map { "'\(CaseError.shown($0))' " } ?? "")"
            + "(fruit id \(favorite.id)) no longer exists")
      }
      names.append(current)
    }
    do {
      if now == nil {
        try suspects.add(
          contentsOf: [
            NewSuspect(
              name: then.name, species: then.species, pawSize: then.pawSize, emoji: then.emoji,
              favoriteFruits: names)
          ], ids: [id])
      } else if let now,
        now.name != then.name || now.species != then.species || now.pawSize != then.pawSize
          || now.emoji != then.emoji
      {
        try suspects.edit(
          id: id,
          SuspectEdit(
            name: then.name, species: then.species, pawSize: then.pawSize, emoji: .some(then.emoji)
          ))
      }
      try restoreFavorites(of: id, to: favorites.map(\.id), names: names)
      guard let current = try suspects.suspect(id: id) else {
        throw CaseError.unknownSuspect("id:\(id)")
      }
      if current.alibi != then.alibi { try suspects.setAlibi(id: id, then.alibi) }
      if current.sleepSchedule != then.sleepSchedule {
        try suspects.setSleepSchedule(id: id, then.sleepSchedule)
      }
      if current.suspicionLevel != then.suspicionLevel {
        try suspects.setSuspicionLevel(id: id, then.suspicionLevel)
      }
    } catch let error as CaseError {
      throw refused(error.description)
    }
    guard let after = try suspects.suspect(id: id) else {
      throw CaseError.unknownSuspect("id:\(id)")
    }
    var recorded: Int64?
    if after != now {
      recorded = running
      if let recorded {
        try connection.execute(
          "UPDATE history_change_sets SET note = ? WHERE id = ? AND note IS NULL",
          ["revert of \(name) to change set \(target)", recorded])
      }
    }
    return CaseHistory.Revert(
      suspect: after, asOf: target, changeSet: recorded, restored: now == nil)
  }

  /// Suspect `id`'s favourites on `connection`, most favoured first: the fruit's id and its
  /// name there (`nil` when its fruit row is gone).
  private static func favoriteFruits(of id: Int64, _ connection: Connection) throws -> [(
    id: Int64, name: String?
  )] {
    let rows = try connection.prepare(
      """
      SELECT ff.fruit_id, f.name FROM favorite_fruits ff LEFT JOIN fruits f ON f.id = ff.fruit_id
      WHERE ff.animal_id = ? ORDER BY ff.position, ff.fruit_id
      """)
    try rows.bind([id])
    var favorites: [(id: Int64, name: String?)] = []
    while let row = try rows.nextRow() {
      favorites.append((try row.int64("fruit_id"), try row.optionalText("name")))
    }
    return favorites
  }

  /// Gives suspect `id` the favourites `fruits` (ids, in order; `names` their names now)
  /// through the repository's operations: those not among them removed, the missing ones
  /// added, then each moved to its place. Nothing is written when the order is already so.
  private func restoreFavorites(of id: Int64, to fruits: [Int64], names: [String]) throws {
    let current = try Self.favoriteFruits(of: id, connection)
    guard current.map(\.id) != fruits else { return }
    for favorite in current where !fruits.contains(favorite.id) {
      try suspects.removeFavorite(id: id, fruit: favorite.name ?? "id:\(favorite.id)")
    }
    for (fruit, name) in zip(fruits, names) where !current.contains(where: { $0.id == fruit }) {
      try suspects.addFavorite(id: id, fruit: name)
    }
    for (position, name) in names.enumerated() {
      try suspects.moveFavorite(id: id, fruit: name, to: position + 1)
    }
  }
}
