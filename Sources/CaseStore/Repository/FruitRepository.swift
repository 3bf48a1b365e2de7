import SQLiteKit

/// Reads and changes fruits (`fruits(id, name, color)`, docs/schema.md "fruits").
public struct FruitRepository<Kind: UnitOfWorkKind> {
  // MARK: - Properties

  let database: CaseDatabase

  // MARK: - Public API

  /// Every fruit, in id order.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  public func all() throws -> [Fruit] {
    try fruits("SELECT id, name, color FROM fruits ORDER BY id", [])
  }

  /// Hands every fruit to `body` in id order, a page at a time, as the rows are read
  /// (`fruit list` streams them).
  ///
  /// - Parameters:
  ///   - size: Fruits per page (1 or more; 1,000 by default).
  ///   - body: Receives each page, never an empty one; what it throws stops the walk.
  /// - Throws: `SQLiteError` when the database cannot be read,
  ///   ``CaseError/invalidStoredValue(table:id:column:value:expected:)`` for a stored value
  ///   outside the domain, or what `body` throws.
  public func forEachPage(size: Int = 1000, _ body: ([Fruit]) throws -> Void) throws {
    let rows = try database.statement("SELECT id, name, color FROM fruits ORDER BY id")
    try rows.forEachPage(size: size, record: Self.fruit(from:), body)
  }

  /// The fruit named `name`, ignoring case and Unicode normalization.
  ///
  /// Every fruit whose name folds to the same key counts: the one the unique index finds
  /// (checked against its own name, so a key written by hand never answers for another name)
  /// and fruits whose keys nobody vouches for (names beyond ASCII that other clients wrote,
  /// keyed by SQL's `lower()`, read through a partial index; docs/schema.md "Folded keys").
  /// More than one is ambiguous, so that no command acts on the wrong fruit. Nothing is
  /// written.
  ///
  /// - Throws: ``CaseError/unknownFruit(_:)``, ``CaseError/ambiguousFruit(_:candidates:)``
  ///   with every candidate as `Name (id N)`, or `SQLiteError`.
  public func find(_ name: String) throws -> Fruit {
    let folded = NameKey.caseKey(name.trimmingSpaces())
    var matches = try fruits(
      "SELECT id, name, color FROM fruits WHERE name_key = ? ORDER BY id", [folded]
    ).filter { NameKey.caseKey($0.name) == folded }
    matches += try unvouchedFruits().filter { NameKey.caseKey($0.name) == folded }
    var seen = Set<Int64>()
    matches = matches.filter { seen.insert($0.id).inserted }.sorted { $0.id < $1.id }
    guard let first = matches.first else { throw CaseError.unknownFruit(name) }
    guard matches.count == 1 else {
      throw CaseError.ambiguousFruit(name, candidates: matches.map { "\($0.name) (id \($0.id))" })
    }
    return first
  }

  // MARK: - Internal helpers

  /// The fruits a query selecting `id, name, color` returns.
  private func fruits(_ sql: String, _ values: [any SQLiteBindable]) throws -> [Fruit] {
    let rows = try database.statement(sql)
    try rows.bind(values)
    var result: [Fruit] = []
    while let row = try rows.nextRow() { result.append(try Self.fruit(from: row)) }
    return result
  }

  /// A fruit from a row with the columns `id`, `name` and `color`.
  static func fruit(from row: Row) throws -> Fruit {
    let id = try row.int64("id")
    return try StoredRow.read("fruits", id: id) {
      Fruit(id: id, name: try row.text("name"), color: try row.text("color"))
    }
  }

  /// Gives the fruits nobody vouches for inspector's Unicode keys (see
  /// ``SuspectRepository/refoldUnvouchedKeys()``).
  func refoldUnvouchedKeys() throws {
    let update = try database.statement(
      "UPDATE fruits SET name_key = ?, name_folded_from = ? WHERE id = ?")
    // In batches along the partial index; a colliding row keeps SQL's key (see the suspects').
    var after: Int64 = 0
    while true {
      let batch = try fruits(
        """
        SELECT id, name, color FROM fruits
        WHERE \(KeyedTable.fruits.unvouchedCondition) AND id > ? ORDER BY id LIMIT 500
        """, [after])
      guard let last = batch.last else { return }
      after = last.id
      for fruit in batch {
        do {
          try update.run([NameKey.caseKey(fruit.name), NameKey.foldedFrom(fruit.name), fruit.id])
        } catch let error as SQLiteError where error.code == .constraint {}
      }
    }
  }

  /// The fruits whose keys nobody vouches for (``KeyedTable/unvouchedCondition``), read through
  /// the partial index `fruits_unvouched_keys`.
  func unvouchedFruits() throws -> [Fruit] {
    try fruits(
      "SELECT id, name, color FROM fruits WHERE \(KeyedTable.fruits.unvouchedCondition) "
        + "ORDER BY id", [])
  }

  /// Who holds fruit `id`: suspects that favour it, as `Name the Species`, then incidents that
  /// concern it, as `incident N`.
  func holders(of id: Int64) throws -> [String] {
    let rows = try database.connection.prepare(
      """
      SELECT a.id AS id, a.name AS name, a.species AS species
      FROM favorite_fruits ff JOIN animals a ON a.id = ff.animal_id
      WHERE ff.fruit_id = ? ORDER BY a.id
      """)
    try rows.bind([id])
    var holders: [String] = []
    while let row = try rows.nextRow() {
      holders.append(
        try StoredRow.read("animals", id: try row.int64("id")) {
          "\(try row.text("name")) the \(try row.text("species"))"
        })
    }
    holders += try database.unit.incidents.ids(concerning: id).map { "incident \($0)" }
    return holders
  }
}

extension FruitRepository where Kind == Writing {
  // MARK: - Changing

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
    try SuspectRepository<Writing>.validate(text: name, field: "fruit name")
    let name = name.trimmingSpaces()
    let color = try Fruit.normalizedColor(color)
    let folded = NameKey.caseKey(name)
    // Keys nobody vouches for are not under the unique index's eye: compare them in Swift.
    if try unvouchedFruits().contains(where: { NameKey.caseKey($0.name) == folded }) {
      throw CaseError.duplicateFruit(name)
    }
    let id: Int64
    do {
      try database.statement(
        "INSERT INTO fruits (name, color, name_key, name_folded_from) VALUES (?, ?, ?, ?)"
      ).run([name, color, folded, NameKey.foldedFrom(name)])
      id = database.connection.lastInsertRowID
    } catch let error as SQLiteError where error.extendedCode == .constraintUnique {
      // Which unique constraint fired is read from the table, not from SQLite's message: the
      // failed statement changed nothing, so a row holding the key means the name is taken.
      let taken = try database.scalar(
        "SELECT 1 FROM fruits WHERE name_key = ? LIMIT 1", [folded])
      if taken != nil { throw CaseError.duplicateFruit(name) }
      throw error
    }
    return Fruit(id: id, name: name, color: color)
  }

  /// Deletes the fruit named `name`, unless a suspect favours it or an incident concerns it.
  ///
  /// - Returns: The fruit as it was.
  /// - Throws: ``CaseError/unknownFruit(_:)``, ``CaseError/fruitInUse(_:by:)`` naming who holds
  ///   it, or `SQLiteError`.
  @discardableResult
  public func remove(_ name: String) throws -> Fruit {
    let fruit = try find(name)
    let holders = try self.holders(of: fruit.id)
    if !holders.isEmpty { throw CaseError.fruitInUse(fruit.name, by: holders) }
    try database.execute("DELETE FROM fruits WHERE id = ?", [fruit.id])
    return fruit
  }
}
