import SQLiteKit

extension SuspectRepository {
  /// The suspects with these ids, with favourites and interviews, in the order of `ids` (an id
  /// with no suspect is left out; a repeated id appears once per mention).
  ///
  /// Two queries whatever the number of ids, as ``all()`` reads the whole table: identities and
  /// interviews, then all their favourites in order, each over the ids bound as one JSON array
  /// and unpacked by SQLite's `json_each`, so every row is found by its primary key.
  ///
  /// - Parameter ids: The ids of one page of suspects (a ranking's top N).
  /// - Throws: `SQLiteError` when the database cannot be read, or
  ///   ``CaseError/invalidStoredValue(table:id:column:value:expected:)`` for a stored value
  ///   outside the domain.
  /// - SQLite: <https://sqlite.org/json1.html#jeach>
  public func suspects(ids: [Int64]) throws -> [Suspect] {
    guard !ids.isEmpty else { return [] }
    let rows = try database.statement(
      """
      SELECT \(SuspectRow.columns) \(SuspectRow.joins)
      WHERE a.id IN (SELECT value FROM json_each(?))
      """)
    try rows.bind([ids.jsonArray])
    let columns = try SuspectRow(rows)
    var byID: [Int64: Suspect] = [:]
    while let row = try rows.nextRow() {
      let suspect = try columns.suspect(from: row, favorites: [])
      byID[suspect.id] = suspect
    }
    for (id, list) in try favoriteNames(of: ids) { byID[id]?.setFavorites(list) }
    return ids.compactMap { byID[$0] }
  }

  /// Hands every suspect (or the first `limit`) to `body` a page at a time in the order of
  /// `orderBy`, which SQLite's sorter establishes over one pass through the tables in id order
  /// (its sorter spills to temporary files, so memory stays flat); each page's favourites are
  /// then read as ``suspects(ids:)`` reads them.
  ///
  /// The SQL has no `LIMIT`: with one, SQLite sorts into a temporary B-tree instead of its
  /// sorter, which for a million rows writes and reads the temporary file page by page. The
  /// walk stops after `limit` rows instead.
  ///
  /// For a whole ranking this reads far fewer pages than looking each suspect up by id in rank
  /// order: the look-ups land on a different page of every table for nearly every suspect.
  ///
  /// - Parameters:
  ///   - orderBy: An `ORDER BY` clause over the columns of ``joins`` that ends in a unique key
  ///     (the ranking's tie-break order). `animals` is read `NOT INDEXED`, in id order, so
  ///     SQLite sorts rather than walking an index and looking every row up.
  ///   - limit: How many suspects at most; `nil` for all.
  ///   - size: Suspects per page (1 or more).
  ///   - body: Receives each page, never an empty one; what it throws stops the walk.
  /// - Throws: What ``forEachPage(size:_:)`` throws.
  func forEachPage(
    orderBy: String, limit: Int?, size: Int, _ body: ([Suspect]) throws -> Void
  ) throws {
    try forEachPage(
      orderBy: orderBy, limit: limit, size: size, extraColumns: nil, extra: { _ in { _ in () } }
    ) { try body($0.map(\.suspect)) }
  }

  /// ``forEachPage(orderBy:limit:size:_:)`` selecting `extraColumns` too (which `orderBy` may
  /// use), each suspect handed on with what `extra` reads from its row (a ranking's clue
  /// verdicts).
  ///
  /// - Parameters:
  ///   - extraColumns: More columns for the select list, named apart from ``SuspectRow``'s.
  ///   - extra: Given the statement (to resolve columns once), returns the reader of one row.
  ///   - parameters: Values for the `?N` parameters of `extraColumns` and `orderBy`.
  func forEachPage<Extra>(
    orderBy: String, limit: Int?, size: Int, extraColumns: String?,
    parameters: [any SQLiteBindable] = [],
    extra: (Statement) throws -> (Row) throws -> Extra,
    _ body: ([(suspect: Suspect, extra: Extra)]) throws -> Void
  ) throws {
    let rows = try database.statement(
      """
      SELECT \(SuspectRow.columns)\(extraColumns.map { ", " + $0 } ?? "")
      FROM animals a NOT INDEXED \(SuspectRow.interviewJoins)
      \(orderBy)
      """)
    if !parameters.isEmpty { try rows.bind(parameters) }
    let columns = try SuspectRow(rows)
    let readExtra = try extra(rows)
    try rows.forEachPage(
      size: size, limit: limit,
      record: { (suspect: try columns.suspect(from: $0, favorites: []), extra: try readExtra($0)) }
    ) { page in
      let favorites = try favoriteNames(of: page.map(\.suspect.id))
      try body(
        page.map { record in
          var record = record
          record.suspect.setFavorites(favorites[record.suspect.id])
          return record
        })
    }
  }

  /// The favourites of each of `ids` in order (suspects without favourites are left out), read
  /// with one query over the ids bound as one JSON array and unpacked by SQLite's `json_each`.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read, or
  ///   ``CaseError/invalidStoredValue(table:id:column:value:expected:)`` for a fruit name that
  ///   is not text.
  /// - SQLite: <https://sqlite.org/json1.html#jeach>
  func favoriteNames(of ids: [Int64]) throws -> [Int64: FavoriteList] {
    let favorites = try database.statement(
      """
      SELECT \(FavoriteRow.columns)
      FROM favorite_fruits ff LEFT JOIN fruits f ON f.id = ff.fruit_id
      WHERE ff.animal_id IN (SELECT value FROM json_each(?))
      ORDER BY ff.animal_id, ff.position, ff.fruit_id
      """)
    try favorites.bind([ids.jsonArray])
    let favoriteColumns = try FavoriteRow(favorites)
    var lists: [Int64: FavoriteList] = [:]
    while let row = try favorites.nextRow() {
      try favoriteColumns.append(
        row, to: &lists[try favoriteColumns.animalID(in: row), default: FavoriteList()])
    }
    return lists
  }
}
