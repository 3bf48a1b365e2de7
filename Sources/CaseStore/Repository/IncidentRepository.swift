import SQLiteKit

/// Reads and records nibble incidents (`incidents`, schema v2; docs/schema.md "incidents"),
/// inside the unit of work whose handle vends it: changes only on a ``CaseWriter``.
public struct IncidentRepository<Kind: UnitOfWorkKind> {
  // MARK: - Properties

  let database: CaseDatabase

  /// An incident whose fruit row is gone still comes back (LEFT JOIN), with no fruit name.
  /// The columns ``incident(from:)`` reads, each named as the column it comes from (the
  /// fruit's name as `fruit`), and the tables.
  static var columns: String {
    """
    i.id AS id, f.name AS fruit, i.occurred_at AS occurred_at, i.paw_size AS paw_size,
    i.latitude AS latitude, i.longitude AS longitude, i.notes AS notes, i.fruit_id AS fruit_id
    FROM incidents i LEFT JOIN fruits f ON f.id = i.fruit_id
    """
  }

  // MARK: - Public API

  /// Every incident, oldest first (by time, then id).
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  public func all() throws -> [Incident] {
    var incidents: [Incident] = []
    try forEachPage { incidents += $0 }
    return incidents
  }

  /// Hands every incident to `body` in the order of ``all()``, a page at a time, as the rows are
  /// read (`incident list` streams them).
  ///
  /// - Parameters:
  ///   - size: Incidents per page (1 or more; 1,000 by default).
  ///   - body: Receives each page, never an empty one; what it throws stops the walk.
  /// - Throws: `SQLiteError` when the database cannot be read,
  ///   ``CaseError/invalidStoredValue(table:id:column:value:expected:)`` for a stored value
  ///   outside the domain, or what `body` throws.
  public func forEachPage(size: Int = 1000, _ body: ([Incident]) throws -> Void) throws {
    let rows = try database.statement("SELECT \(Self.columns) ORDER BY i.occurred_at, i.id")
    try rows.forEachPage(size: size, record: Self.incident(from:), body)
  }

  /// The incident with this id.
  ///
  /// - Throws: ``CaseError/unknownIncident(_:)`` or `SQLiteError`.
  public func find(id: Int64) throws -> Incident {
    let rows = try database.statement("SELECT \(Self.columns) WHERE i.id = ?")
    try rows.bind([id])
    guard let row = try rows.nextRow() else { throw CaseError.unknownIncident("\(id)") }
    return try Self.incident(from: row)
  }

  /// The incident a person typed: a positive whole number naming a stored incident.
  ///
  /// - Throws: ``CaseError/unknownIncident(_:)`` for anything else.
  public func find(_ reference: String) throws -> Incident {
    guard let id = Int64(reference), id > 0 else { throw CaseError.unknownIncident(reference) }
    return try find(id: id)
  }

  /// The most recent incident (latest time, then highest id), or `nil` when there is none.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  public func latest() throws -> Incident? {
    let rows = try database.statement(
      "SELECT \(Self.columns) ORDER BY i.occurred_at DESC, i.id DESC LIMIT 1")
    guard let row = try rows.nextRow() else { return nil }
    return try Self.incident(from: row)
  }

  /// Number of incidents.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  public func count() throws -> Int {
    Int(try database.scalar("SELECT count(*) FROM incidents")?.integerValue ?? 0)
  }

  // MARK: - Internal helpers

  /// Incident ids that concern fruit `id`.
  func ids(concerning fruitID: Int64) throws -> [Int64] {
    let rows = try database.connection.prepare(
      "SELECT id FROM incidents WHERE fruit_id = ? ORDER BY id")
    try rows.bind([fruitID])
    var ids: [Int64] = []
    while let row = try rows.nextRow() { ids.append(try row.int64("id")) }
    return ids
  }

  /// The incident in `row`, selected with ``columns``.
  ///
  /// - Throws: ``CaseError/invalidStoredValue(table:id:column:value:expected:)`` for a stored
  ///   value outside the domain or of the wrong type.
  static func incident(from row: Row) throws -> Incident {
    let id = try row.int64("id")
    return try StoredRow.read("incidents", tables: ["fruit": "fruits"], id: id) {
      var location: Location?
      let latitude = try row.optionalDouble("latitude")
      let longitude = try row.optionalDouble("longitude")
      if latitude != nil || longitude != nil {
        guard let latitude, let longitude,
          let place = Location(latitude: latitude, longitude: longitude)
        else {
          throw CaseError.invalidStoredValue(
            table: "incidents", id: id, column: "latitude, longitude",
            value: [latitude, longitude].map { $0.map { "\($0)" } ?? "NULL" }
              .joined(separator: ", "),
            expected: "degrees from -90 to 90 and -180 to 180, both or neither")
        }
        location = place
      }
      let occurredText = try row.text("occurred_at")
      let occurredAt: LocalDateTime
      do {
        occurredAt = try LocalDateTime(parsing: occurredText)
      } catch {
        throw CaseError.invalidStoredValue(
          table: "incidents", id: id, column: "occurred_at", value: "'\(occurredText)'",
          expected: "a date and time YYYY-MM-DDTHH:MM")
      }
      var pawSize: PawSize?
      if let clue = try row.optionalText("paw_size") {
        guard let parsed = PawSize(rawValue: clue) else {
          throw CaseError.invalidStoredValue(
            table: "incidents", id: id, column: "paw_size", value: "'\(clue)'",
            expected: "small, medium, large or NULL")
        }
        pawSize = parsed
      }
      return Incident(
        id: id, fruitID: try row.int64("fruit_id"), fruit: try row.optionalText("fruit"),
        occurredAt: occurredAt, pawSize: pawSize,
        location: location, notes: try row.text("notes"))
    }
  }
}

extension IncidentRepository where Kind == Writing {
  // MARK: - Changing

  /// Records an incident.
  ///
  /// - Returns: The stored incident with its id.
  /// - Throws: ``CaseError/unknownFruit(_:)``, ``CaseError/invalidValue(field:value:expected:)``
  ///   for notes over 100,000 characters, or `SQLiteError`.
  @discardableResult
  public func add(_ new: NewIncident) throws -> Incident {
    try Self.validate(notes: new.notes)
    let fruit = try database.unit.fruits.find(new.fruit)
    try database.execute(
      """
      INSERT INTO incidents (fruit_id, occurred_at, paw_size, latitude, longitude, notes)
      VALUES (?, ?, ?, ?, ?, ?)
      """,
      [
        fruit.id, new.occurredAt.description, new.pawSize?.rawValue, new.location?.latitude,
        new.location?.longitude, new.notes,
      ])
    return try find(id: database.connection.lastInsertRowID)
  }
}
