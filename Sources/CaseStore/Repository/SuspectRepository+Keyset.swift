import SQLiteKit

extension SuspectRepository {
  /// One page of the suspects `filter` selects, in its order, starting after `position`
  /// (keyset paging, docs/web-desk.md "API"), with the position of its last suspect when more
  /// may follow.
  ///
  /// The query is ``forEachPage(matching:size:_:)``'s with one more condition, the order's key
  /// columns compared with the position's values (`(a.name_key, a.id) > (?, ?)`), so SQLite
  /// seeks the order's index to the position instead of stepping over every earlier suspect:
  /// page 20,000 costs what page 1 costs. The filter's `offset` is ignored; its `limit` (or
  /// 50) is the page size.
  ///
  /// - Parameters:
  ///   - filter: The conditions and order; `limit` is the page size.
  ///   - position: Where the previous page ended (its order must be the filter's), or `nil`
  ///     for the first page.
  /// - Returns: The page, and where it ended when it is full (`nil` when it is the last).
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)`` for a position of another
  ///   order; what ``forEachPage(matching:size:_:)`` throws.
  public func page(matching filter: SuspectFilter, after position: SuspectPosition?) throws
    -> (suspects: [Suspect], next: SuspectPosition?)
  {
    if let position, position.sort != filter.sort || position.reverse != filter.reverse {
      throw CaseError.invalidValue(
        field: "after", value: position.cursor,
        expected: "a cursor of the same sort and order")
    }
    var filter = filter
    let size = max(filter.limit ?? 50, 1)
    filter.limit = size
    filter.offset = 0
    let fruitID = try filter.favorite.map { try database.unit.fruits.find($0).id }
    let unvouchedIDs = try filter.species.map { species in
      let key = NameKey.caseKey(species.trimmingSpaces())
      return try unvouchedRows().filter { NameKey.caseKey($0.species) == key }.map(\.id)
    }
    var suspects: [Suspect] = []
    var last: SuspectPosition?
    // The level order after a position is two index ranges, read one after the other.
    let arms = position.map { Self.keysetConditions(after: $0).map(Optional.some) } ?? [nil]
    for arm in arms where suspects.count < size {
      filter.limit = size - suspects.count
      let query = Self.listingQuery(
        filter, favoriteFruitID: fruitID, unvouchedSpeciesIDs: unvouchedIDs ?? [],
        keyset: true, after: arm)
      let rows = try database.statement(query.sql)
      try rows.bind(query.parameters)
      let columns = try SuspectRow(rows)
      while let row = try rows.nextRow() {
        let suspect = try columns.suspect(from: row, favorites: [])
        suspects.append(suspect)
        last = SuspectPosition(
          sort: filter.sort, reverse: filter.reverse, level: try row.double("key_level"),
          nameKey: try row.optionalText("key_name") ?? "",
          speciesKey: try row.optionalText("key_species") ?? "", id: suspect.id)
      }
    }
    let favorites = try favoriteNames(of: suspects.map(\.id))
    for index in suspects.indices { suspects[index].setFavorites(favorites[suspects[index].id]) }
    return (suspects, suspects.count == size ? last : nil)
  }

  /// The order's key columns a keyset page selects besides ``SuspectRow/columns``.
  static var keyColumns: String {
    "a.suspicion_level AS key_level, a.name_key AS key_name, a.species_key AS key_species"
  }

  /// The conditions that keep the suspects after `position` in its order (the orders of
  /// ``listingQuery(_:favoriteFruitID:unvouchedSpeciesIDs:keyset:after:)``), each with its
  /// values: the suspects after it are those of the first, then those of the second.
  ///
  /// The level order mixes directions (level descending, then name, species and id
  /// ascending), which one row-value comparison cannot say, and an `OR` of two ranges would
  /// make SQLite walk the index from its start (or sort): so it is two conditions, the rest of
  /// the position's level (`level = ? AND (name_key, species_key, id) > (?, ?, ?)`) and the
  /// levels after it (`level < ?`), each one seek of `animals_rank_order`.
  static func keysetConditions(after position: SuspectPosition) -> [(
    sql: String, parameters: [any SQLiteBindable]
  )] {
    let later = position.reverse ? "<" : ">"
    let earlier = position.reverse ? ">" : "<"
    switch position.sort {
    case .id:
      return [("a.id \(later) ?", [position.id])]
    case .species:
      return [("a.species_key \(later) ?", [position.speciesKey])]
    case .name:
      return [("(a.name_key, a.id) \(later) (?, ?)", [position.nameKey, position.id])]
    case .level:
      return [
        (
          "a.suspicion_level = ? AND (a.name_key, a.species_key, a.id) \(later) (?, ?, ?)",
          [position.level, position.nameKey, position.speciesKey, position.id]
        ),
        ("a.suspicion_level \(earlier) ?", [position.level]),
      ]
    }
  }
}
