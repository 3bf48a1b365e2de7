import SQLiteKit

/// A favourite fruit as the favourite queries select it (from `favorite_fruits ff LEFT JOIN
/// fruits f`): whose it is and the fruit's name.
struct FavoriteRow {
  /// The columns: the suspect's id, the fruit's id and its name (or a flag for a missing fruit;
  /// see ``SuspectRepository/favoriteName``).
  static let columns = """
    ff.animal_id AS animal_id, ff.fruit_id AS fruit_id, \(SuspectRow.favoriteName) AS fruit,
      f.id IS NULL AS fruit_missing
    """

  let animalID: Column
  let fruitID: Column
  let fruit: Column
  let fruitMissing: Column

  /// Resolves the columns of a statement that selects ``columns``.
  init(_ statement: Statement) throws {
    animalID = try statement.column("animal_id")
    fruitID = try statement.column("fruit_id")
    fruit = try statement.column("fruit")
    fruitMissing = try statement.column("fruit_missing")
  }

  /// Appends the favourite in `row` to `list`: its fruit's name, or the placeholder and the
  /// fruit's id when the fruit row is gone.
  func append(_ row: Row, to list: inout FavoriteList) throws {
    if try row.int64(fruitMissing) != 0 {
      list.missing[list.names.count] = try row.int64(fruitID)
    }
    list.names.append(try fruitName(in: row))
  }

  /// The suspect's id in `row`.
  func animalID(in row: Row) throws -> Int64 { try row.int64(animalID) }

  /// The fruit's name in `row`.
  ///
  /// - Throws: ``CaseError/invalidStoredValue(table:id:column:value:expected:)`` for a name
  ///   that is not text.
  func fruitName(in row: Row) throws -> String {
    do {
      return try row.text(fruit)
    } catch let error as RowDecodingError {
      // The fruit's id is read only now: the list reads every favourite of every suspect.
      return try StoredRow.read("fruits", id: try row.int64(fruitID)) {
        // Report the fruit's own column, not the alias.
        throw RowDecodingError(column: "name", reason: error.reason, sql: error.sql)
      }
    }
  }
}

/// One suspect's favourites as read: names in order (placeholders where the fruit is gone) and
/// the missing ones (``Suspect/missingFavoriteFruits``).
struct FavoriteList {
  var names: [String] = []
  var missing: [Int: Int64] = [:]
}

extension Suspect {
  /// Sets the favourites to `list`.
  mutating func setFavorites(_ list: FavoriteList?) {
    favoriteFruits = list?.names ?? []
    missingFavoriteFruits = list?.missing ?? [:]
  }
}
