import SQLiteKit

/// The case history (docs/history.md): change sets, newest first, each with the changes it
/// recorded, read from the `history_change_sets` and `history_changes` tables that the
/// schema's triggers fill (`migrations/0014_history_changes.sql`).
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
    /// Only change sets up to this id (the history as it stood then: the desk's `as_of=`).
    public var through: Int64?

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
    for (entryColumn, id) in [
      ("animal_id", filter.animalID), ("fruit_id", filter.fruitID),
      ("incident_id", filter.incidentID),
    ] {
      guard let id else { continue }
      let filed = RecordedTable.all.compactMap { table in
        table.filedUnder.first { $0.entryColumn == entryColumn }.map { (table, $0.column) }
      }
      let options = filed.map { table, column in
        Self.filedCondition(table, column: column)
      }
      conditions.append("(" + options.joined(separator: " OR ") + ")")
      arguments += Array(repeating: id, count: filed.count)
    }
    let limit = filter.limit ?? .max
    var sets = 0
    var current: ChangeSet?
    var listed = false
    // The names of the suspects and fruits a page names, looked up once each.
    var names: [String: String?] = [:]
    var page: [Change] = []
    page.reserveCapacity(max(size, 1))
    /// Takes one change of change set `setID` (`at`, `actor`, `note` its fields); `false`
    /// once the limit of change sets is passed. A change set counts towards the limit when its
    /// first change is listed: one whose changes are all hidden is not shown, so not counted.
    func take(
      _ stored: StoredChange, setID: Int64, at: String, actor: String?, note: String?
    ) throws -> Bool {
      if current?.id != setID {
        current = ChangeSet(id: setID, at: at, actor: actor, note: note)
        listed = false
      }
      // A change set's first listed change starts it (a REPLACE that changed nothing is not
      // listed).
      guard let changeSet = current,
        let change = try change(stored, in: changeSet, starts: !listed, names: &names)
      else { return true }
      if !listed {
        sets += 1
        guard sets <= limit else { return false }
      }
      listed = true
      page.append(change)
      if page.count >= size {
        try body(page)
        page.removeAll(keepingCapacity: true)
        names.removeAll(keepingCapacity: true)
      }
      return true
    }
    if conditions.isEmpty {
      try forEachChangeNewestFirst(since: filter.since, through: filter.through) {
        try take($0, setID: $1.id, at: $1.at, actor: $1.actor, note: $1.note)
      }
    } else {
      // A suspect's, fruit's or incident's changes: found through the index of each row's
      // changes, then put in order.
      if let since = filter.since {
        conditions.append("c.at >= ?")
        arguments.append(since)
      }
      if let through = filter.through {
        conditions.append("h.id <= ?")
        arguments.append(try Self.lastChange(database.connection, upTo: through))
      }
      let rows = try database.statement(
        """
        SELECT c.id AS set_id, c.at, c.actor, c.note, \(StoredChange.columns("h"))
        FROM history_changes h
        JOIN history_change_sets c ON c.id = \(ChangeSetBounds.changeSet(of: "h.id"))
        WHERE \(conditions.joined(separator: " AND "))
        ORDER BY set_id DESC, h.id
        """)
      try rows.bind(arguments)
      while let row = try rows.nextRow() {
        guard
          try take(
            try StoredChange(row), setID: try row.int64("set_id"), at: try row.text("at"),
            actor: try row.optionalText("actor"), note: try row.optionalText("note"))
        else { break }
      }
    }
    if !page.isEmpty { try body(page) }
  }

  /// Hands `body` every change of the change sets from `since` (a time, compared with their
  /// `at`) through `through` (an id), change sets newest first, each one's changes in the order
  /// they were made, with its id and fields, until `body` returns `false`. Each change set's
  /// changes are one range of ids (``ChangeSetBounds``), read in order: no sort, whatever the
  /// history's size.
  ///
  /// - Throws: ``CaseError/historyDisagrees(_:)``; `SQLiteError`; what `body` throws.
  private func forEachChangeNewestFirst(
    since: String?, through: Int64?,
    _ body: (StoredChange, (id: Int64, at: String, actor: String?, note: String?)) throws -> Bool
  ) throws {
    let connection = database.connection
    let sets = try connection.prepare(
      """
      SELECT id, at, actor, note FROM history_change_sets
      WHERE id <= ?1 AND (?2 IS NULL OR at >= ?2) ORDER BY id DESC
      """)
    try sets.bind([through ?? .max, since])
    let changes = try connection.prepare(
      "SELECT \(StoredChange.columns()) FROM history_changes WHERE id >= ? AND id < ? ORDER BY id")
    let bounds = ChangeSetBounds(connection: connection)
    while let set = try sets.nextRow() {
      let id = try set.int64("id")
      let fields = (
        id: id, at: try set.text("at"), actor: try set.optionalText("actor"),
        note: try set.optionalText("note")
      )
      let range = try bounds.changes(of: id)
      guard !range.isEmpty else { continue }
      try changes.bind([range.lowerBound, range.upperBound])
      defer { changes.reset() }
      while let row = try changes.nextRow() {
        guard try body(try StoredChange(row, at: 0, changeSet: id), fields) else { return }
      }
    }
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
        """
        SELECT 1 FROM history_changes WHERE table_id IN (\(Self.suspectTables)) AND key1 = ?
        LIMIT 1
        """, [id]) != nil
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
  /// The numbers of the tables whose rows belong to a suspect, whose first key column is the
  /// suspect's id (`2, 3, 4, 5, 6`).
  static var suspectTables: String {
    RecordedTable.all.filter { $0.filedUnder.contains { $0.entryColumn == "animal_id" } }
      .map { "\($0.historyID)" }.joined(separator: ", ")
  }

  /// The SQL condition on change `h` of `history_changes` that files it under the value `?`
  /// of `table`'s `column`: a key column as stored; another column as the row holds it after
  /// the change, or, for a delete, before it (the previous change's value).
  static func filedCondition(_ table: RecordedTable, column: String) -> String {
    if let key = table.keySlot(of: column) {
      return "(h.table_id = \(table.historyID) AND h.\(key) = ?)"
    }
    let slot = table.slot(of: column) ?? "NULL"
    return """
      (h.table_id = \(table.historyID) AND ? IS coalesce(h.\(slot), CASE WHEN h.operation = 0 THEN
        (SELECT p.\(slot) FROM history_changes p WHERE p.table_id = h.table_id
          AND p.key1 = h.key1 AND p.key2 IS h.key2 AND p.id < h.id ORDER BY p.id DESC LIMIT 1)
        END))
      """
  }

  /// `change` for people (``Change``), in change set `changeSet`: an insert over a row the
  /// history holds is the update of that row (another client's REPLACE), and an update lists
  /// the columns that differ from the row's previous change; `nil` for a REPLACE that changed
  /// no recorded column.
  private func change(
    _ change: StoredChange, in changeSet: ChangeSet, starts: Bool,
    names: inout [String: String?]
  ) throws -> Change? {
    func cachedName(of table: String, id: Int64) throws -> String? {
      let key = "\(table) \(id)"
      if let known = names[key] { return known }
      let found = try name(of: table, id: id)
      names[key] = .some(found)
      return found
    }
    let previous = try previousChange(of: change)
    let entry = recordedEntry(change, previous: previous)
    if entry.operation == .update, entry.after.isEmpty { return nil }
    let table = change.table
    func adHoc(_ values: [(column: String, value: SQLiteValue)]) -> [(
      column: String, value: AdHocValue
    )] {
      values.map { ($0.column, AdHocValue($0.value)) }
    }
    let values = entry.operation == .delete ? entry.before : entry.after
    var row: [String: SQLiteValue] = entry.key
    for (column, value) in values { row[column] = value }
    if entry.operation == .update, let before = previous?.row {
      for (column, value) in before where row[column] == nil { row[column] = value }
    }
    func filed(_ entryColumn: String) -> Int64? {
      table.filedUnder.first { $0.entryColumn == entryColumn }.flatMap { row[$0.column] }?
        .integerValue
    }
    let animalID = filed("animal_id")
    let fruitID = filed("fruit_id")
    return Change(
      changeSet: changeSet, startsChangeSet: starts, table: table.name,
      key: table.key.map { ($0, AdHocValue(entry.key[$0] ?? .null)) },
      operation: entry.operation,
      before: entry.operation == .insert ? nil : adHoc(entry.before),
      after: entry.operation == .delete ? nil : adHoc(entry.after),
      suspectName: try animalID.flatMap { try cachedName(of: "animals", id: $0) },
      animalID: animalID,
      fruitName: try fruitID.flatMap { try cachedName(of: "fruits", id: $0) },
      incidentID: filed("incident_id"))
  }

  /// The name of suspect or fruit `id` (`table` is `animals` or `fruits`): as stored now, else
  /// as last recorded.
  private func name(of table: String, id: Int64) throws -> String? {
    guard let recorded = RecordedTable.named(table), let slot = recorded.slot(of: "name")
    else { return nil }
    let name = try database.statement(
      """
      SELECT coalesce((SELECT name FROM \(table) WHERE id = ?1),
        (SELECT \(slot) FROM history_changes WHERE table_id = ?2 AND key1 = ?1 AND key2 IS NULL
          AND operation <> 0 ORDER BY id DESC LIMIT 1)) AS name
      """)
    try name.bind([id, Int64(recorded.historyID)])
    return try name.nextRow()?.optionalText("name")
  }
}
