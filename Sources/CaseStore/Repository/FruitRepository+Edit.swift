import SQLiteKit

extension FruitRepository where Kind == Writing {
  /// Changes the name or colour of the fruit named `reference`; fields left `nil` in `edit` stay.
  ///
  /// The same rules as ``add(name:color:)``: a new name is not blank, at most 10,000
  /// characters, loses leading and trailing whitespace, and is unique ignoring case (changing
  /// only the letter case of the fruit's own name is allowed). Favourites and incidents refer to
  /// the fruit by id, so they follow a rename. One transaction: nothing is stored when it throws.
  ///
  /// - Parameters:
  ///   - reference: The fruit's current name, ignoring case (see ``find(_:)``).
  ///   - edit: The new values.
  /// - Returns: The fruit as stored afterwards.
  /// - Throws: ``CaseError/unknownFruit(_:)``, ``CaseError/ambiguousFruit(_:candidates:)``,
  ///   ``CaseError/invalidValue(field:value:expected:)``, ``CaseError/duplicateFruit(_:)``, or
  ///   `SQLiteError`.
  @discardableResult
  public func edit(_ reference: String, _ edit: FruitEdit) throws -> Fruit {
    if let name = edit.name {
      try SuspectRepository<Writing>.validate(text: name, field: "fruit name")
    }
    let newName = edit.name?.trimmingSpaces()
    let newColor = try edit.color.map { try Fruit.normalizedColor($0) }
    var fruit = try find(reference)
    fruit.name = newName ?? fruit.name
    fruit.color = newColor ?? fruit.color
    let folded = NameKey.caseKey(fruit.name)
    // Keys nobody vouches for are not under the unique index's eye: compare them in Swift.
    if try unvouchedFruits().contains(where: {
      $0.id != fruit.id && NameKey.caseKey($0.name) == folded
    }) {
      throw CaseError.duplicateFruit(fruit.name)
    }
    do {
      try database.statement(
        "UPDATE fruits SET name = ?, color = ?, name_key = ?, name_folded_from = ? WHERE id = ?"
      ).run([fruit.name, fruit.color, folded, NameKey.foldedFrom(fruit.name), fruit.id])
    } catch let error as SQLiteError where error.extendedCode == .constraintUnique {
      // As in add: the refused statement changed nothing, so another row holding the key
      // means the name is taken.
      let taken = try database.scalar(
        "SELECT 1 FROM fruits WHERE name_key = ? AND id <> ? LIMIT 1", [folded, fruit.id])
      if taken != nil { throw CaseError.duplicateFruit(fruit.name) }
      throw error
    }
    return fruit
  }
}
