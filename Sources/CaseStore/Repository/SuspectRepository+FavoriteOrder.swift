import SQLiteKit

extension SuspectRepository where Kind == Writing {
  /// Moves `fruitName` to `position` among suspect `id`'s favourites; the others keep their
  /// relative order (`favorite move`).
  ///
  /// Positions count from 1 (the most favoured). A position past the last moves the fruit last.
  /// The suspect's favourites are renumbered 0, 1, 2, ... in their new order, in one
  /// transaction, so gaps or ties left by other clients are gone afterwards; ties were read in
  /// fruit id order, as every listing reads them.
  ///
  /// - Parameters:
  ///   - id: The suspect's id.
  ///   - fruitName: One of the suspect's favourites, by name (ignoring case).
  ///   - position: The new position, 1 or more.
  /// - Returns: The position the fruit holds afterwards (1-based).
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)`` for a position below 1,
  ///   ``CaseError/unknownSuspect(_:)``, ``CaseError/unknownFruit(_:)``,
  ///   ``CaseError/ambiguousFruit(_:candidates:)``, ``CaseError/notFavorite(suspect:fruit:)``,
  ///   or `SQLiteError`.
  @discardableResult
  public func moveFavorite(id: Int64, fruit fruitName: String, to position: Int) throws -> Int {
    guard position >= 1 else {
      throw CaseError.invalidValue(
        field: "position", value: "\(position)", expected: "a whole number, 1 or more")
    }
    guard
      let name = try database.scalar("SELECT name FROM animals WHERE id = ?", [id])?
        .textValue
    else { throw CaseError.unknownSuspect("\(id)") }
    let fruit = try database.unit.fruits.find(fruitName)
    let rows = try database.statement(
      "SELECT fruit_id FROM favorite_fruits WHERE animal_id = ? ORDER BY position, fruit_id")
    try rows.bind([id])
    var order: [Int64] = []
    while let row = try rows.nextRow() { order.append(try row.int64("fruit_id")) }
    guard let from = order.firstIndex(of: fruit.id) else {
      throw CaseError.notFavorite(suspect: name, fruit: fruit.name)
    }
    order.remove(at: from)
    let target = min(position, order.count + 1) - 1
    order.insert(fruit.id, at: target)
    let update = try database.statement(
      """
      UPDATE favorite_fruits SET position = ?1
      WHERE animal_id = ?2 AND fruit_id = ?3 AND position IS NOT ?1
      """)
    for (index, fruitID) in order.enumerated() { try update.run([index, id, fruitID]) }
    return target + 1
  }
}
