import SQLiteKit

/// The case history (docs/history.md): change sets, newest first, each with the changes it
/// recorded, read from the `history_change_sets` and `history_entries` tables that the
/// schema's triggers fill (`migrations/0007_history.sql`).
public struct CaseHistory {
  // MARK: - Types

  /// One change set: the changes of one inspector transaction (or of one statement of another
  /// client, or a migration's snapshot).
  public struct ChangeSet: Sendable, Equatable {
    /// Its id, ascending in the order the change sets were recorded.
    public let id: Int64
    /// When it was recorded, UTC with milliseconds: `YYYY-MM-DDTHH:MM:SS.SSSZ`.
    public let at: String
    /// Who made it (`--as`, `$INSPECTOR_ACTOR` or the login name), or `nil` for another
    /// client's writes and a migration's snapshot.
    public let actor: String?
    /// Why (`--note`), or `nil`.
    public let note: String?
  }

  /// What happened to a row.
  public enum Operation: String, Sendable, Equatable {
    /// The row was added.
    case insert
    /// Some of its recorded columns changed.
    case update
    /// The row was removed.
    case delete
  }

  /// One recorded change of one row.
  public struct Change: Sendable, Equatable {
    /// The change set it belongs to.
    public let changeSet: ChangeSet
    /// Whether it is the first change of its change set in this listing.
    public let startsChangeSet: Bool
    /// The table: `animals`, `fruits`, `favorite_fruits`, `alibis`, `sleep_schedules`,
    /// `suspicion_levels` or `incidents`.
    public let table: String
    /// The row's primary key, column name to value, after the change (before it, for a
    /// delete).
    public let key: [(column: String, value: AdHocValue)]
    /// Insert, update or delete.
    public let operation: Operation
    /// The values before the change: every recorded column for a delete, the changed ones for
    /// an update, `nil` for an insert.
    public let before: [(column: String, value: AdHocValue)]?
    /// The values after the change: every recorded column for an insert, the changed ones for
    /// an update, `nil` for a delete.
    public let after: [(column: String, value: AdHocValue)]?
    /// The name of the suspect the row belongs to (as stored now, else as last recorded), or
    /// `nil` for rows of no suspect.
    public let suspectName: String?
    /// The id of the suspect the row belongs to, or `nil`.
    public let animalID: Int64?
    /// The name of the fruit the row names (as stored now, else as last recorded), or `nil`.
    public let fruitName: String?
    /// The id of the incident the row is, or `nil`.
    public let incidentID: Int64?

    public static func == (lhs: Change, rhs: Change) -> Bool {
      func same(
        _ left: [(column: String, value: AdHocValue)]?,
        _ right: [(column: String, value: AdHocValue)]?
      ) -> Bool {
        switch (left, right) {
        case (nil, nil): true
        case (let left?, let right?):
          left.map(\.column) == right.map(\.column) && left.map(\.value) == right.map(\.value)
        default: false
        }
      }
      return lhs.changeSet == rhs.changeSet && lhs.startsChangeSet == rhs.startsChangeSet
        && lhs.table == rhs.table && same(lhs.key, rhs.key) && lhs.operation == rhs.operation
        && same(lhs.before, rhs.before) && same(lhs.after, rhs.after)
        && lhs.suspectName == rhs.suspectName && lhs.animalID == rhs.animalID
        && lhs.fruitName == rhs.fruitName && lhs.incidentID == rhs.incidentID
    }
  }

  /// Which changes to list; every filter given must hold.
  public struct Filter: Sendable, Equatable {
    /// Only changes of rows of this suspect (its row, favourites and interview).
    public var animalID: Int64?
    /// Only changes of this fruit's row, of favourites naming it and of incidents of it.
    public var fruitID: Int64?
    /// Only changes of this incident.
    public var incidentID: Int64?
    /// Only change sets recorded at or after this UTC time (`YYYY-MM-DDTHH:MM:SS.SSSZ`, as
    /// ``utcTime(parsing:)`` returns).
    public var since: String?
    /// At most this many change sets (1 or more); `nil` for all.
    public var limit: Int?

    /// A filter; every part is optional.
    public init(
      animalID: Int64? = nil, fruitID: Int64? = nil, incidentID: Int64? = nil,
      since: String? = nil, limit: Int? = nil
    ) {
      self.animalID = animalID
      self.fruitID = fruitID
      self.incidentID = incidentID
      self.since = since
      self.limit = limit
    }
  }

  // MARK: - Properties

  let database: CaseDatabase

  // MARK: - Public API

  /// Hands the changes that `filter` selects to `body` a page at a time: change sets newest
  /// first, each one's changes in the order they were made. Only one page is held at a time.
  ///
  /// - Parameters:
  ///   - filter: Which changes; ``Filter/limit`` counts change sets, not changes.
  ///   - size: Changes per page (1 or more).
  ///   - body: Receives each page, never an empty one.
  /// - Throws: `SQLiteError`, or what `body` throws.
  public func forEachPage(
    _ filter: Filter = Filter(), size: Int = 1000, _ body: ([Change]) throws -> Void
  ) throws {
    var conditions: [String] = []
    var arguments: [any SQLiteBindable] = []
    if let id = filter.animalID {
      conditions.append("e.animal_id = ?")
      arguments.append(id)
    }
    if let id = filter.fruitID {
      conditions.append("e.fruit_id = ?")
      arguments.append(id)
    }
    if let id = filter.incidentID {
      conditions.append("e.incident_id = ?")
      arguments.append(id)
    }
    if let since = filter.since {
      conditions.append("c.at >= ?")
      arguments.append(since)
    }
    let condition = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
    let rows = try database.statement(
      """
      SELECT c.id, c.at, c.actor, c.note, e.id AS entry_id, e.table_name, e.row_key,
        e.operation, e.animal_id, e.incident_id,
        CASE WHEN e.animal_id IS NOT NULL THEN coalesce(
          (SELECT name FROM animals WHERE id = e.animal_id),
          (SELECT coalesce(v.after_value, v.before_value)
            FROM history_entries h JOIN history_values v ON v.entry_id = h.id
            WHERE h.animal_id = e.animal_id AND h.table_name = 'animals'
              AND v.column_name = 'name'
            ORDER BY h.id DESC LIMIT 1)) END AS suspect_name,
        CASE WHEN e.fruit_id IS NOT NULL THEN coalesce(
          (SELECT name FROM fruits WHERE id = e.fruit_id),
          (SELECT coalesce(v.after_value, v.before_value)
            FROM history_entries h JOIN history_values v ON v.entry_id = h.id
            WHERE h.fruit_id = e.fruit_id AND h.table_name = 'fruits'
              AND v.column_name = 'name'
            ORDER BY h.id DESC LIMIT 1)) END AS fruit_name
      FROM history_entries e JOIN history_change_sets c ON c.id = e.change_set_id
      \(condition)
      ORDER BY e.change_set_id DESC, e.id
      """)
    try rows.bind(arguments)
    let limit = filter.limit ?? .max
    var sets = 0
    var current: ChangeSet?
    var page: [Change] = []
    page.reserveCapacity(max(size, 1))
    while let row = try rows.nextRow() {
      let setID = try row.int64("id")
      let starts = current?.id != setID
      if starts {
        sets += 1
        guard sets <= limit else { break }
        current = ChangeSet(
          id: setID, at: try row.text("at"), actor: try row.optionalText("actor"),
          note: try row.optionalText("note"))
      }
      guard let changeSet = current else { continue }
      let operation = Operation(rawValue: try row.text("operation")) ?? .update
      let (before, after) = try values(ofEntry: row.int64("entry_id"))
      page.append(
        Change(
          changeSet: changeSet, startsChangeSet: starts, table: try row.text("table_name"),
          key: Self.key(try row.text("row_key")), operation: operation,
          before: operation == .insert ? nil : before,
          after: operation == .delete ? nil : after,
          suspectName: try row.optionalText("suspect_name"),
          animalID: try row.optionalInt64("animal_id"),
          fruitName: try row.optionalText("fruit_name"),
          incidentID: try row.optionalInt64("incident_id")))
      if page.count >= size {
        try body(page)
        page.removeAll(keepingCapacity: true)
      }
    }
    if !page.isEmpty { try body(page) }
  }

  /// The suspect an `<animal>` argument names for the history: a stored suspect, as
  /// ``SuspectRepository/resolve(_:)`` finds it, or, for `id:N`, also a removed one whose
  /// changes are recorded.
  ///
  /// - Throws: ``CaseError/unknownSuspect(_:)``, ``CaseError/ambiguousSuspect(_:candidates:)``
  ///   or `SQLiteError`.
  public func resolveSuspect(_ reference: String) throws -> Int64 {
    let trimmed = reference.trimmingSpaces()
    if trimmed.hasPrefix("id:"), let id = Int64(trimmed.dropFirst(3)), id > 0,
      try database.connection.scalar(
        "SELECT 1 FROM history_entries WHERE animal_id = ? LIMIT 1", [id]) != nil
    {
      return id
    }
    return try database.unit.suspects.resolve(reference)
  }

  /// A time as the history compares it: `YYYY-MM-DDTHH:MM`, `YYYY-MM-DDTHH:MM:SS` or
  /// `YYYY-MM-DDTHH:MM:SS.SSS` in local time (as `TZ` says), or any of them followed by `Z`
  /// for UTC, turned into UTC text `YYYY-MM-DDTHH:MM:SS.SSSZ`.
  ///
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)`` for anything else, or a date
  ///   that does not exist.
  public func utcTime(parsing text: String) throws -> String {
    let isUTC = text.hasSuffix("Z")
    let local = isUTC ? String(text.dropLast()) : text
    let shapes = [
      "[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]",
      "[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]",
      "[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9].[0-9][0-9][0-9]",
    ]
    let converted = try database.connection.scalar(
      """
      SELECT CASE WHEN (?1 GLOB ?3 OR ?1 GLOB ?4 OR ?1 GLOB ?5)
          AND date(substr(?1, 1, 10), '+0 days') IS substr(?1, 1, 10)
          AND substr(?1, 12, 5) < '24:00'
        THEN CASE WHEN ?2 THEN strftime('%Y-%m-%dT%H:%M:%fZ', ?1)
          ELSE strftime('%Y-%m-%dT%H:%M:%fZ', ?1, 'utc') END
      END
      """, [local, isUTC, shapes[0], shapes[1], shapes[2]])?.textValue
    guard let converted, converted.utf8.count == 24 else {
      throw CaseError.invalidValue(
        field: "time", value: text,
        expected: "YYYY-MM-DDTHH:MM[:SS] in local time, or the same ending in Z for UTC")
    }
    return converted
  }
}

extension CaseHistory {
  /// The recorded values of one entry, in the table's column order: before and after.
  private func values(ofEntry id: Int64) throws -> (
    before: [(column: String, value: AdHocValue)], after: [(column: String, value: AdHocValue)]
  ) {
    let rows = try database.statement(
      """
      SELECT column_name, before_value, after_value FROM history_values
      WHERE entry_id = ? ORDER BY ordinal
      """)
    try rows.bind([id])
    var before: [(column: String, value: AdHocValue)] = []
    var after: [(column: String, value: AdHocValue)] = []
    while let row = try rows.nextRow() {
      let column = try row.text("column_name")
      before.append((column, AdHocValue(try row.value("before_value"))))
      after.append((column, AdHocValue(try row.value("after_value"))))
    }
    return (before, after)
  }

  /// The key the schema's triggers wrote, `{"column":N,...}` (whole numbers only), as column
  /// and value pairs; text in any other shape comes back whole under `key`.
  static func key(_ text: String) -> [(column: String, value: AdHocValue)] {
    guard text.hasPrefix("{"), text.hasSuffix("}") else { return [("key", .text(text))] }
    var members: [(column: String, value: AdHocValue)] = []
    for member in text.dropFirst().dropLast().split(separator: ",") {
      let parts = member.split(separator: ":", maxSplits: 1)
      guard parts.count == 2, parts[0].count >= 2, parts[0].hasPrefix("\""),
        parts[0].hasSuffix("\""), let number = Int64(parts[1])
      else { return [("key", .text(text))] }
      members.append((String(parts[0].dropFirst().dropLast()), .integer(number)))
    }
    return members
  }
}
