import SQLiteKit

extension SuspectRepository {
  /// Hands the suspects that `filter` selects to `body` a page at a time, in its order, with
  /// favourites and interviews.
  ///
  /// One query selects the suspects, with `LIMIT` and `OFFSET`; each page's favourites are then
  /// read as ``suspects(ids:)`` reads them, so memory holds one page. The conditions and orders
  /// are written in the words of the schema's indexes, so that SQLite can serve them:
  /// `species_key` (unique index), `paw_size` (`animals_paw_size`), the level
  /// (`animals_rank_order`), a favourite (`favorite_fruits_fruit`), a stated alibi (the partial
  /// index `alibis_stated`); sorting by level, name or species walks `animals_rank_order`,
  /// `animals_name_key` or the species index instead of sorting.
  ///
  /// - Parameters:
  ///   - filter: The conditions, order and slice.
  ///   - size: Suspects per page (1 or more; 1,000 by default).
  ///   - body: Receives each page, never an empty one; what it throws stops the walk.
  /// - Throws: ``CaseError/unknownFruit(_:)`` for a favourite no fruit has, `SQLiteError`, or
  ///   what ``forEachPage(size:_:)`` throws.
  public func forEachPage(
    matching filter: SuspectFilter, size: Int = 1000, _ body: ([Suspect]) throws -> Void
  ) throws {
    let fruitID = try filter.favorite.map { try database.unit.fruits.find($0).id }
    // A species whose key nobody vouches for (another client's text beyond ASCII, keyed by
    // SQL's lower()) is compared in Swift, as the look-ups compare it.
    let unvouchedIDs = try filter.species.map { species in
      let key = NameKey.caseKey(species.trimmingSpaces())
      return try unvouchedRows().filter { NameKey.caseKey($0.species) == key }.map(\.id)
    }
    let query = Self.listingQuery(
      filter, favoriteFruitID: fruitID, unvouchedSpeciesIDs: unvouchedIDs ?? [])
    let rows = try database.statement(query.sql)
    try rows.bind(query.parameters)
    let columns = try SuspectRow(rows)
    try rows.forEachPage(size: size, record: { try columns.suspect(from: $0, favorites: []) }) {
      page in
      let favorites = try favoriteNames(of: page.map(\.id))
      try body(
        page.map { suspect in
          var suspect = suspect
          suspect.setFavorites(favorites[suspect.id])
          return suspect
        })
    }
  }

  /// The SQL of ``forEachPage(matching:size:_:)`` and its parameters; `unvouchedSpeciesIDs`
  /// are the suspects whose keys nobody vouches for that have the filter's species. With
  /// `keyset`, the order's key columns are selected too (``keyColumns``), and `after` (one of
  /// ``keysetConditions(after:)``) is one more condition (``page(matching:after:)``).
  static func listingQuery(
    _ filter: SuspectFilter, favoriteFruitID: Int64?, unvouchedSpeciesIDs: [Int64] = [],
    keyset: Bool = false, after: (sql: String, parameters: [any SQLiteBindable])? = nil
  ) -> (sql: String, parameters: [any SQLiteBindable]) {
    var conditions: [String] = []
    var parameters: [any SQLiteBindable] = []
    if let name = filter.name {
      conditions.append("a.name_key = ?")
      parameters.append(NameKey.sortKey(name.trimmingSpaces()))
    }
    if let species = filter.species {
      let ids = unvouchedSpeciesIDs.map(String.init).joined(separator: ", ")
      conditions.append(
        ids.isEmpty ? "a.species_key = ?" : "(a.species_key = ? OR a.id IN (\(ids)))")
      parameters.append(NameKey.caseKey(species.trimmingSpaces()))
    }
    if let paw = filter.pawSize {
      conditions.append("a.paw_size = ?")
      parameters.append(paw.rawValue)
    }
    if let level = filter.minLevel {
      conditions.append("a.suspicion_level >= ?")
      parameters.append(level.value)
    }
    if let level = filter.maxLevel {
      conditions.append("a.suspicion_level <= ?")
      parameters.append(level.value)
    }
    if let favoriteFruitID {
      conditions.append("a.id IN (\(ClueSets.favourersSQL))")
      parameters.append(favoriteFruitID)
    }
    if filter.noAlibi { conditions.append("a.id NOT IN (\(ClueSets.statedAlibisSQL))") }
    if let time = filter.awakeAt {
      conditions.append(
        """
        a.id NOT IN (SELECT animal_id FROM sleep_schedules
                     WHERE (sleep_at <= ?) + (? < wake_at) > (sleep_at <= wake_at))
        """)
      parameters += [time.description, time.description]
    }
    let ascending = filter.reverse ? " DESC" : ""
    let descending = filter.reverse ? "" : " DESC"
    let order =
      switch filter.sort {
      case .level:
        "a.suspicion_level\(descending), a.name_key\(ascending), a.species_key\(ascending), "
          + "a.id\(ascending)"
      case .name: "a.name_key\(ascending), a.id\(ascending)"
      case .species: "a.species_key\(ascending)"
      case .id: "a.id\(ascending)"
      }
    if let after {
      conditions.append(after.sql)
      parameters += after.parameters
    }
    parameters += [Int64(filter.limit ?? -1), Int64(filter.offset)]
    let keys = keyset ? ", " + Self.keyColumns : ""
    let sql = """
      SELECT \(SuspectRow.columns)\(keys) \(SuspectRow.joins)
      \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
      ORDER BY \(order) LIMIT ? OFFSET ?
      """
    return (sql, parameters)
  }
}
