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
    let idList = "[" + ids.map(String.init).joined(separator: ",") + "]"
    let rows = try database.statement(
      """
      SELECT \(SuspectRow.columns) \(Self.joins)
      WHERE a.id IN (SELECT value FROM json_each(?))
      """)
    try rows.bind([idList])
    let columns = try SuspectRow(rows)
    var byID: [Int64: Suspect] = [:]
    while let row = try rows.nextRow() {
      let suspect = try columns.suspect(from: row, favorites: [])
      byID[suspect.id] = suspect
    }
    let favorites = try database.statement(
      """
      SELECT \(FavoriteRow.columns)
      FROM favorite_fruits ff LEFT JOIN fruits f ON f.id = ff.fruit_id
      WHERE ff.animal_id IN (SELECT value FROM json_each(?))
      ORDER BY ff.animal_id, ff.position, ff.fruit_id
      """)
    try favorites.bind([idList])
    let favoriteColumns = try FavoriteRow(favorites)
    while let row = try favorites.nextRow() {
      byID[try favoriteColumns.animalID(in: row)]?.favoriteFruits.append(
        try favoriteColumns.fruitName(in: row))
    }
    return ids.compactMap { byID[$0] }
  }
}
