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
  /// `animals_name_key` or the species index instead of sorting, and the fruits order walks
  /// `fruits`' name index and `favorite_fruits_fruit`, then the suspects without favourites in
  /// id order (`listingQuery`).
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
    if filter.sort == .fruits {
      try forEachFruitsPage(
        filter, favoriteFruitID: fruitID, unvouchedSpeciesIDs: unvouchedIDs ?? [], size: size,
        body)
      return
    }
    let query = Self.listingQuery(
      filter, favoriteFruitID: fruitID, unvouchedSpeciesIDs: unvouchedIDs ?? [])
    try forEachPage(query, size: size, body)
  }

  /// ``forEachPage(matching:size:_:)`` in the fruits order: the suspects with a favourite
  /// (``ListingPart/favourites``), then those without (or the other way round, reversed), each
  /// part its own query in index order, the second read only once the first is exhausted.
  ///
  /// One query over both parts would make SQLite find the first row of each before handing on
  /// any (a `UNION ALL` merge), and the first suspect without favourites costs a walk over
  /// every suspect when there is none. The offset is carried over to the second part: when the
  /// first part returns nothing, its suspects are counted to learn how many the offset passed.
  private func forEachFruitsPage(
    _ filter: SuspectFilter, favoriteFruitID: Int64?, unvouchedSpeciesIDs: [Int64], size: Int,
    _ body: ([Suspect]) throws -> Void
  ) throws {
    let parts: [ListingPart] =
      filter.reverse ? [.withoutFavourites, .favourites] : [.favourites, .withoutFavourites]
    var remaining = filter.limit
    var offset = filter.offset
    for part in parts {
      if remaining == 0 { break }
      var slice = filter
      slice.limit = remaining
      slice.offset = offset
      let query = Self.listingQuery(
        slice, favoriteFruitID: favoriteFruitID, unvouchedSpeciesIDs: unvouchedSpeciesIDs,
        part: part)
      var read = 0
      try forEachPage(query, size: size) { page in
        read += page.count
        try body(page)
      }
      if let limit = remaining { remaining = limit - read }
      if read > 0 || offset == 0 {
        offset = 0
      } else {
        var whole = filter
        whole.limit = nil
        whole.offset = 0
        let all = Self.listingQuery(
          whole, favoriteFruitID: favoriteFruitID, unvouchedSpeciesIDs: unvouchedSpeciesIDs,
          part: part)
        let count = try database.statement("SELECT count(*) AS n FROM (\(all.sql))")
        try count.bind(all.parameters)
        let skipped = try count.nextRow().map { try $0.int64("n") } ?? 0
        offset = max(0, offset - Int(skipped))
      }
    }
  }

  /// Hands the suspects `query` selects (``SuspectRow/columns`` first) to `body` a page at a
  /// time, with their favourites.
  private func forEachPage(
    _ query: (sql: String, parameters: [any SQLiteBindable]), size: Int,
    _ body: ([Suspect]) throws -> Void
  ) throws {
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

  /// The first favourite whose fruit exists, of the suspect of `ff.animal_id`: no favourite of
  /// an existing fruit comes before `ff` (position, then fruit id, as the listing shows them).
  /// One look-up of the suspect's favourites by the primary key.
  static var isFirstFavouriteSQL: String {
    """
    NOT EXISTS (SELECT 1 FROM favorite_fruits g JOIN fruits gf ON gf.id = g.fruit_id
                WHERE g.animal_id = ff.animal_id
                  AND (g.position, g.fruit_id) < (ff.position, ff.fruit_id))
    """
  }

  /// The suspect of `a.id` has no favourite whose fruit exists.
  static var hasNoFavouriteSQL: String {
    """
    NOT EXISTS (SELECT 1 FROM favorite_fruits g JOIN fruits gf ON gf.id = g.fruit_id
                WHERE g.animal_id = a.id)
    """
  }

  /// The SQL of ``forEachPage(matching:size:_:)`` and its parameters; `unvouchedSpeciesIDs`
  /// are the suspects whose keys nobody vouches for that have the filter's species. With
  /// `keyset`, the order's key columns are selected too (``keyColumns``), and `after` (one of
  /// ``keysetConditions(after:)``) is one more condition (``page(matching:after:)``).
  ///
  /// In the fruits order, `part` says which suspects: those with a favourite, walked fruit by
  /// fruit in name order (`fruits`' unique name index) and within a fruit by suspect id
  /// (`favorite_fruits_fruit`), each checked to be the suspect's first favourite; or those
  /// without, in id order. Neither sorts. Other orders ignore `part`.
  static func listingQuery(
    _ filter: SuspectFilter, favoriteFruitID: Int64?, unvouchedSpeciesIDs: [Int64] = [],
    keyset: Bool = false, after: (sql: String, parameters: [any SQLiteBindable])? = nil,
    part: ListingPart = .favourites
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
      case .fruits:
        part == .favourites
          ? "fr.name_key\(ascending), fr.id\(ascending), ff.animal_id\(ascending)"
          : "a.id\(ascending)"
      }
    var from = SuspectRow.joins
    var keys = keyset ? ", " + Self.keyColumns : ""
    if filter.sort == .fruits {
      if part == .favourites {
        conditions.append(isFirstFavouriteSQL)
        // CROSS JOIN keeps the loops in this order, so the order is theirs: with plain
        // joins SQLite may walk `favorite_fruits` first and sort every suspect.
        from = """
          FROM fruits fr CROSS JOIN favorite_fruits ff ON ff.fruit_id = fr.id
          CROSS JOIN animals a ON a.id = ff.animal_id \(SuspectRow.interviewJoins)
          """
        if keyset { keys += ", fr.name_key AS key_fruit, fr.id AS key_fruit_id" }
      } else {
        conditions.append(hasNoFavouriteSQL)
        if keyset { keys += ", NULL AS key_fruit, NULL AS key_fruit_id" }
      }
    }
    if let after {
      conditions.append(after.sql)
      parameters += after.parameters
    }
    parameters += [Int64(filter.limit ?? -1), Int64(filter.offset)]
    let sql = """
      SELECT \(SuspectRow.columns)\(keys) \(from)
      \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
      ORDER BY \(order) LIMIT ? OFFSET ?
      """
    return (sql, parameters)
  }
}

/// Which suspects a query of the fruits order selects (``SuspectSort/fruits``): the order is
/// two parts, each read in index order by its own query.
enum ListingPart: Sendable {
  /// The suspects with a favourite whose fruit exists, by their first such fruit.
  case favourites
  /// The suspects without one, by id.
  case withoutFavourites
}
