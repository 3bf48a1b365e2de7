import SQLiteKit

/// Reads and changes fruits (`fruits(id, name, color)`, README "The documented schema").
public struct FruitRepository {
  // MARK: - Properties

  let database: CaseDatabase

  // MARK: - Public API

  /// Every fruit, in id order.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  public func all() throws -> [Fruit] {
    let rows = try database.statement("SELECT id, name, color FROM fruits ORDER BY id")
    var fruits: [Fruit] = []
    while try rows.step() {
      fruits.append(Fruit(id: rows.int64(at: 0), name: rows.text(at: 1), color: rows.text(at: 2)))
    }
    return fruits
  }

  /// The fruit named `name`, ignoring case (Unicode-aware).
  ///
  /// - Throws: ``CaseError/unknownFruit(_:)`` or `SQLiteError`.
  public func find(_ name: String) throws -> Fruit {
    let rows = try database.statement("SELECT id, name, color FROM fruits WHERE name_key = ?")
    try rows.bind([NameKey.caseKey(name.trimmingSpaces())])
    if try rows.step() {
      let fruit = Fruit(id: rows.int64(at: 0), name: rows.text(at: 1), color: rows.text(at: 2))
      rows.reset()
      return fruit
    }
    // Rows written by other tools may carry a key folded differently; they are marked.
    let folded = NameKey.caseKey(name.trimmingSpaces())
    let marked = try database.statement(
      "SELECT id, name, color FROM fruits WHERE key_pending = 1 ORDER BY id")
    defer { marked.reset() }
    while try marked.step() {
      let (id, stored, color) = (marked.int64(at: 0), marked.text(at: 1), marked.text(at: 2))
      if NameKey.caseKey(stored) == folded { return Fruit(id: id, name: stored, color: color) }
    }
    throw CaseError.unknownFruit(name)
  }

  /// Stores a new fruit.
  ///
  /// - Parameters:
  ///   - name: Not blank, at most 10,000 characters, unique ignoring case; leading and trailing
  ///     whitespace is dropped.
  ///   - color: A colour name (`red`) or `#RRGGBB`; see ``Fruit/normalizedColor(_:)``.
  /// - Returns: The stored fruit.
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)``,
  ///   ``CaseError/duplicateFruit(_:)``, or `SQLiteError`.
  @discardableResult
  public func add(name: String, color: String) throws -> Fruit {
    try SuspectRepository.validate(text: name, field: "fruit name")
    let name = name.trimmingSpaces()
    let color = try Fruit.normalizedColor(color)
    return try database.write {
      try refoldPendingKeys()
      let folded = NameKey.caseKey(name)
      let marked = try database.statement("SELECT name FROM fruits WHERE key_pending = 1")
      while try marked.step() {
        if NameKey.caseKey(marked.text(at: 0)) == folded {
          marked.reset()
          throw CaseError.duplicateFruit(name)
        }
      }
      do {
        // Text beyond printable ASCII is stored marked, with the Unicode key, so that the
        // schema's triggers leave it alone; then the mark is cleared (schema 0005).
        let plainASCII = NameKey.isPlainASCII(name)
        try database.statement(
          "INSERT INTO fruits (name, color, name_key, key_pending) VALUES (?, ?, ?, ?)"
        ).run([name, color, folded, plainASCII ? 0 : 1])
        if !plainASCII {
          try database.connection.execute(
            "UPDATE fruits SET key_pending = 0 WHERE id = ?", [database.connection.lastInsertRowID])
        }
      } catch let error as SQLiteError where error.code == .constraint {
        if error.message.contains("name_key") { throw CaseError.duplicateFruit(name) }
        throw error
      }
      // An UPDATE leaves the last insert rowid as the INSERT set it.
      return Fruit(id: database.connection.lastInsertRowID, name: name, color: color)
    }
  }

  /// Deletes the fruit named `name`, unless a suspect favours it or an incident concerns it.
  ///
  /// - Returns: The fruit as it was.
  /// - Throws: ``CaseError/unknownFruit(_:)``, ``CaseError/fruitInUse(_:by:)`` naming who holds
  ///   it, or `SQLiteError`.
  @discardableResult
  public func remove(_ name: String) throws -> Fruit {
    try database.write {
      let fruit = try find(name)
      let holders = try self.holders(of: fruit.id)
      if !holders.isEmpty { throw CaseError.fruitInUse(fruit.name, by: holders) }
      try database.connection.execute("DELETE FROM fruits WHERE id = ?", [fruit.id])
      return fruit
    }
  }

  // MARK: - Internal helpers

  /// Re-folds the keys of fruits marked by the SQL triggers (see
  /// ``SuspectRepository/refoldPendingKeys()``).
  func refoldPendingKeys() throws {
    let rows = try database.statement(
      "SELECT id, name FROM fruits WHERE key_pending = 1 ORDER BY id")
    var pending: [(Int64, String)] = []
    while try rows.step() { pending.append((rows.int64(at: 0), rows.text(at: 1))) }
    for (id, name) in pending {
      do {
        try database.connection.inSavepoint {
          try database.connection.execute(
            "UPDATE fruits SET name_key = ?, key_pending = 0 WHERE id = ?",
            [NameKey.caseKey(name), id])
        }
      } catch let error as SQLiteError where error.code == .constraint {}
    }
  }

  /// Who holds fruit `id`: suspects that favour it, as `Name the Species`, then incidents that
  /// concern it, as `incident N`.
  func holders(of id: Int64) throws -> [String] {
    let rows = try database.connection.prepare(
      """
      SELECT a.name, a.species FROM favorite_fruits ff JOIN animals a ON a.id = ff.animal_id
      WHERE ff.fruit_id = ? ORDER BY a.id
      """)
    try rows.bind([id])
    var holders: [String] = []
    while try rows.step() { holders.append("\(rows.text(at: 0)) the \(rows.text(at: 1))") }
    holders += try database.incidents.ids(concerning: id).map { "incident \($0)" }
    return holders
  }
}
