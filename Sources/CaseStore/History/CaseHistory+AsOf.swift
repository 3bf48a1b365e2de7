import SQLiteKit

extension CaseHistory {
  /// The change set a `--as-of` point names: a change set id (digits), or a time as
  /// ``utcTime(parsing:)`` reads it, which names the newest change set recorded at or before
  /// it.
  ///
  /// - Returns: The change set's id.
  /// - Throws: ``CaseError/beforeHistory(point:firstChangeSet:at:)`` for a time or an id
  ///   before the first change set the history holds (nothing is known of then: the file may
  ///   be older than the history, or the history was pruned);
  ///   ``CaseError/unknownChangeSet(_:)`` for an id after the last one, or any point when the
  ///   history is empty; ``CaseError/invalidValue(field:value:expected:)`` for a malformed
  ///   time.
  public func changeSet(asOf point: String) throws -> Int64 {
    try changeSet(asOf: point, excluding: nil)
  }

  /// ``changeSet(asOf:)`` as a write sees it: `running`, the write's own change set, is not
  /// yet in the history, so its id is unknown and a time names the newest change set before
  /// it (`revert --as-of` with the next id, or a time after the write began).
  ///
  /// - Throws: What ``changeSet(asOf:)`` throws.
  func changeSet(asOf point: String, excluding running: Int64?) throws -> Int64 {
    let connection = database.connection
    let isID = !point.isEmpty && point.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    let time = isID ? nil : try utcTime(parsing: point)
    let first = try connection.prepare(
      "SELECT id, at FROM history_change_sets ORDER BY id LIMIT 1")
    guard let row = try first.nextRow() else { throw CaseError.unknownChangeSet("latest") }
    let firstID = try row.int64("id")
    let firstAt = try row.text("at")
    guard let time else {
      guard let id = Int64(point) else { throw CaseError.unknownChangeSet(point) }
      guard id >= firstID else {
        throw CaseError.beforeHistory(point: point, firstChangeSet: firstID, at: firstAt)
      }
      guard id != running,
        try connection.scalar("SELECT 1 FROM history_change_sets WHERE id = ?", [id]) != nil
      else { throw CaseError.unknownChangeSet(point) }
      return id
    }
    guard
      let id = try connection.scalar(
        "SELECT max(id) FROM history_change_sets WHERE at <= ? AND id IS NOT ?",
        [time, running])?.integerValue
    else { throw CaseError.beforeHistory(point: point, firstChangeSet: firstID, at: firstAt) }
    return id
  }

  /// The case as it stood after change set `id` (docs/history.md "As of"), rebuilt from the
  /// history alone into a new private case file (a temporary file of SQLite's own, deleted
  /// when it is released), so every reader of a case file (the suspect look-ups, the listing)
  /// works on it unchanged.
  ///
  /// The rows are read with SQL from the history (each row's latest change up to `id`, from
  /// `history_changes_row` in key order; rows no later change touched, of the tables that
  /// allow it, as they are today) into the rebuilt case; memory stays flat (the temporary
  /// file's page cache), time grows with the rows alive at that point.
  ///
  /// - Parameter id: A change set id as ``changeSet(asOf:)`` returns it (`0`: an empty case).
  /// - Throws: ``CaseError/historyDisagrees(_:)`` for a history changed by hand, or one whose
  ///   rows then break a rule of the schema (a row another client's `REPLACE` removed under
  ///   another unique key); `SQLiteError`.
  public func rebuiltCase(asOf id: Int64) throws -> CaseDatabase {
    try rebuiltCase(asOf: id, indexed: true)
  }

  /// ``rebuiltCase(asOf:)``, with or without the suspects' indexes of other orders.
  ///
  /// - Parameters:
  ///   - id: A change set id as ``changeSet(asOf:)`` returns it (`0`: an empty case).
  ///   - indexed: `false` when the rebuilt case is only read in id order (`list` without
  ///     filters or sort): the indexes that serve other orders and filters
  ///     (`animals_name_key`, `animals_rank_order`, `animals_paw_size`, ...) are then not
  ///     built, a third of the rebuild at 1,000,000 suspects. Any read still answers the
  ///     same, only slower.
  /// - Throws: As ``rebuiltCase(asOf:)``.
  public func rebuiltCase(asOf id: Int64, indexed: Bool) throws -> CaseDatabase {
    if let rebuilt = try rebuiltCaseInBulk(asOf: id, tables: RecordedTable.all, indexed: indexed) {
      return rebuilt
    }
    return try rebuiltCase(asOf: id, suspect: nil)
  }

  /// The id of the suspect `reference` (the `<animal>` argument, docs/command-line.md
  /// "<animal>") meant after change set `id`, found as ``SuspectRepository/resolve(_:)`` finds
  /// one among the suspects as they stood then (docs/history.md "As of").
  ///
  /// A suspect's row as it stood then is its latest recorded change up to `id`. The rows that
  /// may match are those the word finds among today's suspects (through their name and
  /// species indexes) and those whose `animals` row changed after `id` (renamed, removed):
  /// any other suspect stands as it did then. Each is read as it stood then by one seek of
  /// `history_changes_row`: time grows with the changes after `id`, not with the case. When
  /// those are many (a point before most of the history), the `animals` rows as they stood
  /// then are rebuilt instead (set-based, from a case file; row by row from an in-memory one)
  /// and the word is resolved among them.
  ///
  /// - Parameters:
  ///   - reference: What was typed (`crow`, `10`, `id:10`).
  ///   - id: A change set id as ``changeSet(asOf:)`` returns it.
  /// - Returns: The suspect's id.
  /// - Throws: ``CaseError/unknownSuspect(_:)``, ``CaseError/ambiguousSuspect(_:candidates:)``;
  ///   as ``rebuiltCase(asOf:)``.
  public func suspectID(_ reference: String, asOf id: Int64) throws -> Int64 {
    let connection = database.connection
    let bound = try Self.lastChange(connection, upTo: id)
    let trimmed = reference.trimmingSpaces()
    let animals = RecordedTable.all.first { $0.name == "animals" }!
    let then = try connection.prepare(
      """
      SELECT id, operation, \(animals.storedColumn(of: "name")!),
        \(animals.storedColumn(of: "species")!)
      FROM history_changes WHERE table_id = ?1 AND key1 = ?2 AND key2 IS NULL AND id <= ?3
      ORDER BY id DESC LIMIT 1
      """)
    // The suspect with this key as it stood then, or nil when it did not exist.
    func candidate(_ key: Int64) throws -> SuspectLookup.Candidate? {
      then.reset()
      try then.bind([Int64(animals.historyID), key, bound])
      guard try then.step() else { return nil }
      let row = then.row()
      guard row[1] != .integer(StoredChange.Kind.delete.rawValue) else { return nil }
      guard let name = row[2].textValue, let species = row[3].textValue else {
        throw CaseError.historyDisagrees(
          "history change \(row[0]) holds a suspect without a text name or species")
      }
      return (key, name, species)
    }
    if trimmed.hasPrefix("id:") {
      guard let key = Int64(trimmed.dropFirst(3)), key > 0, try candidate(key) != nil else {
        throw CaseError.unknownSuspect(reference)
      }
      return key
    }
    let last = try connection.scalar("SELECT max(id) FROM history_changes")?.integerValue ?? 0
    guard last - bound <= Self.lookUpLimit else {
      let rebuilt =
        // Without the indexes of orders: two scans of the rebuilt rows cost less than
        // building them.
        try rebuiltCaseInBulk(asOf: id, tables: [animals], indexed: false)
        ?? rebuiltCase(asOf: id, suspect: nil)
      return try rebuilt.read { try $0.suspects.resolve(reference) }
    }
    var rows = try Self.changedSuspects(connection, after: bound, matching: trimmed)
    let changed = Set(rows.map(\.id))
    for row in try database.unit.suspects.candidates(matching: trimmed)
    where !changed.contains(row.id) {
      if let then = try candidate(row.id) { rows.append(then) }
    }
    return try SuspectLookup.resolve(reference, among: rows)
  }

  /// The most changes after the point a look-up reads through
  /// (``changedSuspects(_:after:matching:)``): past it, rebuilding the `animals` rows as they
  /// stood then costs less.
  static let lookUpLimit: Int64 = 2_000_000

  /// The suspects whose `animals` row changed after the change whose id is `bound`, as they
  /// stood then (those that existed then), that may be the one `reference` means: their name
  /// or species in ASCII equal to the word's key (`lower()` is then inspector's key), any
  /// name or species beyond ASCII (compared in Swift), or the id the word is. One statement:
  /// the changes after `bound` in the order they were recorded, each changed suspect's latest
  /// change up to `bound` by one seek of `history_changes_row`.
  ///
  /// - Throws: ``CaseError/historyDisagrees(_:)`` for a suspect recorded without a text name or
  ///   species; `SQLiteError`.
  private static func changedSuspects(
    _ connection: Connection, after bound: Int64, matching reference: String
  ) throws -> [SuspectLookup.Candidate] {
    let animals = RecordedTable.all.first { $0.name == "animals" }!
    let name = "h.\(animals.storedColumn(of: "name")!)"
    let species = "h.\(animals.storedColumn(of: "species")!)"
    func beyondASCII(_ column: String) -> String {
      "length(CAST(\(column) AS BLOB)) > length(\(column)) OR instr(\(column), char(0)) > 0"
    }
    // `+table_id`: the changes after the point, in id order (a range of the table), not every
    // `animals` change through `history_changes_row`.
    let rows = try connection.prepare(
      """
      SELECT h.id, h.key1, \(name), \(species)
      FROM (SELECT DISTINCT key1 FROM history_changes WHERE id > ?1 AND +table_id = ?2) AS c
        JOIN history_changes AS h ON h.id = (SELECT max(id) FROM history_changes
            WHERE table_id = ?2 AND key1 = c.key1 AND key2 IS NULL AND id <= ?1)
      WHERE h.operation <> 0
        AND (typeof(\(name)) <> 'text' OR typeof(\(species)) <> 'text'
          OR lower(\(name)) = ?3 OR lower(\(species)) = ?4 OR h.key1 = ?5
          OR \(beyondASCII(name)) OR \(beyondASCII(species)))
      """)
    try rows.bind([
      bound, Int64(animals.historyID), NameKey.sortKey(reference), NameKey.caseKey(reference),
      Int64(reference) ?? 0,
    ])
    var candidates: [SuspectLookup.Candidate] = []
    while try rows.step() {
      let row = rows.row()
      guard let key = row[1].integerValue, let name = row[2].textValue,
        let species = row[3].textValue
      else {
        throw CaseError.historyDisagrees(
          "history change \(row[0]) holds a suspect without a text name or species")
      }
      candidates.append((key, name, species))
    }
    return candidates
  }

  /// One suspect as it stood after change set `id`, rebuilt from the history alone into a new
  /// private in-memory case file (docs/history.md "As of"): its `animals` row, its favourites
  /// and interview, and the fruits its favourites name, each read by index seeks of its own
  /// rows (`history_changes_row`), whatever the size of the case. The rebuilt case holds no
  /// other suspect, so only `id:N` finds one in it.
  ///
  /// - Parameters:
  ///   - id: A change set id as ``changeSet(asOf:)`` returns it.
  ///   - animal: The suspect's id.
  /// - Throws: As ``rebuiltCase(asOf:)``.
  public func rebuiltCase(asOf id: Int64, suspect animal: Int64) throws -> CaseDatabase {
    try rebuiltCase(asOf: id, suspect: Optional(animal))
  }

  /// ``rebuiltCase(asOf:)``, or with `animal` only that suspect's rows and the fruits its
  /// favourites name.
  private func rebuiltCase(asOf id: Int64, suspect animal: Int64?) throws -> CaseDatabase {
    let source = database.connection
    let bound = try Self.lastChange(source, upTo: id)
    var fruits: [Int64] = []
    // One suspect fits in memory; a whole case is rebuilt in a temporary file of SQLite's own,
    // so memory stays flat whatever its size.
    // The rebuilt case is a view: its own history, search index and cross-table checks have
    // nothing to add.
    let rebuilt = try CaseDatabase(
      schemaOf: source, temporaryFile: animal == nil, leavingOut: Self.servesWritesOnly)
    let connection = rebuilt.connection
    try connection.execute("PRAGMA foreign_keys = OFF")
    try connection.inTransaction(.immediate) {
      // One suspect's fruits are known once its favourites are read.
      let tables =
        animal == nil
        ? RecordedTable.all
        : RecordedTable.all.filter { $0.name != "fruits" }
          + RecordedTable.all.filter { $0.name == "fruits" }
      for table in tables {
        let columns = table.columns.map { "\"\($0)\"" }.joined(separator: ", ")
        let marks = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
        let insert = try connection.prepare(
          "INSERT INTO \"\(table.name)\" (\(columns)) VALUES (\(marks))")
        let mine = table.key.first == "animal_id" || table.name == "animals"
        var keys: [Int64?] = [nil]
        if let animal {
          if table.name == "fruits" {
            keys = Array(Set(fruits)).sorted()
          } else if mine {
            keys = [animal]
          } else {
            keys = []
          }
        }
        for key1 in keys {
          try Self.forEachRecordedRowValues(source, table, upTo: bound, key1: key1) { values in
            if animal != nil, table.name == "favorite_fruits", let fruit = values[1].integerValue {
              fruits.append(fruit)
            }
            try Self.disagreeing(table: table.name, asOf: id) { try insert.run(values) }
          }
        }
      }
    }
    // The rows got SQL's keys: fold them as inspector does, so ties order as in the case file.
    try rebuilt.write(nil) { _ in }
    return rebuilt
  }

  /// The case as it stood after change set `id` (``rebuiltCase(asOf:)``), only `tables` of it,
  /// built set-based with the case file attached to the rebuilt case's connection: no row
  /// passes through Swift. `nil` when the case is not in a file (an in-memory case cannot be
  /// attached) or the caller is inside a write (`revert`: another connection's read of the
  /// file may be refused until it commits): ``rebuiltCase(asOf:suspect:)`` rebuilds it row by
  /// row.
  ///
  /// Two ways, whichever reads less (docs/history.md "As of"):
  /// - when at most a third of the history came after `id` (the usual look back), the tables
  ///   whose only unique key is their primary key (favourites, interviews, incidents) are
  ///   copied as they are today (SQLite copies a table with its indexes record by record when
  ///   the two schemas agree), then only the rows a later change touched are replaced by their
  ///   latest change up to `id` (or removed), one index seek each: every other row stands as it
  ///   did then, since every change of such a row is recorded;
  /// - otherwise, and always for `animals` and `fruits` (another client's `REPLACE` can remove
  ///   a row of theirs under another unique key without a trace), each row alive then is its
  ///   latest change up to `id`, one `INSERT ... SELECT` per table, and the table's indexes
  ///   are built once the rows are in.
  /// The derived columns are computed in the same statements (ASCII keys by `lower()`, as the
  /// schema's triggers would; keys beyond ASCII are folded after, as before).
  ///
  /// The attached file is read by a connection of its own, outside the caller's snapshot: the
  /// history up to change set `id` does not change once recorded (only `history prune`
  /// removes older change sets, which then refuses `id`); a write committed meanwhile changes
  /// rows the patch then reads from the history as well.
  ///
  /// - Throws: As ``rebuiltCase(asOf:)``.
  ///
  /// With `indexed` false, the indexes dropped before the rows went in (the rebuilt tables'
  /// own, but those their definitions hold) are not built again.
  private func rebuiltCaseInBulk(
    asOf id: Int64, tables: [RecordedTable], indexed: Bool = true
  ) throws -> CaseDatabase? {
    let source = database.connection
    // Inside a write (revert), another connection to the file could be refused its read.
    guard source.path != ":memory:", !source.path.isEmpty, !source.isWriting else { return nil }
    let bound = try Self.lastChange(source, upTo: id)
    let rebuilt = try CaseDatabase(
      schemaOf: source, temporaryFile: true, leavingOut: Self.servesWritesOnly)
    let connection = rebuilt.connection
    try connection.execute("PRAGMA foreign_keys = OFF")
    // 16 MiB of page cache for the private file (SQLite's default is 2 MiB): the indexes built
    // and the unique keys kept while the rows go in touch pages all over it, and each page
    // evicted is written out and read back; the whole process stays well under 64 MiB.
    try connection.execute("PRAGMA main.cache_size = -16384")
    try connection.execute("ATTACH ? AS history_source", [source.path])
    defer { try? connection.execute("DETACH history_source") }
    // The changes after the point, read in the attached file's own snapshot.
    let last =
      try connection.scalar("SELECT max(id) FROM history_source.history_changes")?.integerValue
      ?? 0
    // A table is copied and patched only when it has no unique key but its primary key: a
    // row another client's REPLACE removes under another unique key (a suspect's species, a
    // fruit's name) leaves no trace in the history, so `animals` and `fruits` are always
    // rebuilt from it (docs/history.md "What other clients' REPLACE records").
    let patched = Set(
      (last - bound) * 3 <= last
        ? tables.map(\.name).filter { $0 != "animals" && $0 != "fruits" } : [])
    let rebuiltNames = tables.filter { !patched.contains($0.name) }.map { "'\($0.name)'" }
      .joined(separator: ", ")
    let patchedNames = patched.map { "'\($0)'" }.joined(separator: ", ")
    // The schema's insert triggers only compute what the statements below compute themselves
    // (the keys, the level) or check the text rules the rows met when they were written: a
    // trigger program per row would cost more than the copy. A copied table must have no
    // trigger left for SQLite to copy its records as they are.
    let inserts = try connection.prepare(
      """
      SELECT name FROM sqlite_schema
      WHERE type = 'trigger' AND ((tbl_name IN (\(rebuiltNames)) AND name GLOB '*_insert')
        OR tbl_name IN (\(patchedNames)))
      """)
    var triggers: [String] = []
    while let row = try inserts.nextRow() { triggers.append(try row.text("name")) }
    for name in triggers { try connection.execute("DROP TRIGGER \"\(name)\"") }
    // The rebuilt tables' own indexes are built once, after the rows (those a table's
    // definition holds, such as its primary key, stay: SQLite cannot drop them); the copied
    // ones' are copied with their rows.
    let indexes = try connection.prepare(
      """
      SELECT name, sql FROM sqlite_schema
      WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (\(rebuiltNames))
      """)
    var definitions: [(name: String, sql: String)] = []
    while let row = try indexes.nextRow() {
      definitions.append((try row.text("name"), try row.text("sql")))
    }
    for index in definitions { try connection.execute("DROP INDEX \"\(index.name)\"") }
    try connection.inTransaction(.immediate) {
      // Levels before suspects, so each suspect's row is inserted with its level.
      let order = ["fruits", "suspicion_levels", "animals"]
      let ordered =
        tables.filter { order.contains($0.name) }.sorted {
          order.firstIndex(of: $0.name)! < order.firstIndex(of: $1.name)!
        } + tables.filter { !order.contains($0.name) }
      for table in ordered {
        let patching = patched.contains(table.name)
        if patching {
          try connection.execute(
            "INSERT INTO main.\"\(table.name)\" SELECT * FROM history_source.\"\(table.name)\"")
          try Self.removeRowsChanged(of: table, after: bound, from: connection)
        }
        try Self.copyRows(of: table, upTo: bound, into: connection, asOf: id, patching: patching)
      }
      for index in definitions where indexed {
        try Self.disagreeing(table: "", asOf: id) { try connection.execute(index.sql) }
      }
    }
    try connection.execute("DETACH history_source")
    // Keys beyond ASCII got SQL's keys: fold them as inspector does, so ties order as in the
    // case file.
    try rebuilt.write(nil) { _ in }
    return rebuilt
  }

  /// Removes from the rebuilt case's copy of `table` every row a change after the one whose id
  /// is `bound` touched (by its key then: a row whose key changed is recorded as a delete of
  /// the old key and an insert of the new one), read from the attached `history_source`.
  private static func removeRowsChanged(
    of table: RecordedTable, after bound: Int64, from connection: Connection
  ) throws {
    let key = table.key.map { "\"\($0)\"" }
    let keys = ["key1", "key2"].prefix(key.count).joined(separator: ", ")
    try connection.execute(
      """
      DELETE FROM main."\(table.name)"
      WHERE (\(key.joined(separator: ", "))) IN (SELECT \(keys)
          FROM history_source.history_changes WHERE id > ?1 AND +table_id = ?2)
      """, [bound, Int64(table.historyID)])
  }

  /// Whether the trigger of this name only serves a case being written: its own history and
  /// search index, which a rebuilt case (a view) is made without.
  private static func servesWritesOnly(_ trigger: String) -> Bool {
    trigger.hasPrefix("history_") || trigger.contains("_search_after_")
  }

  /// Copies every row of `table` alive after the change whose id is `bound` from the attached
  /// `history_source`'s history into the rebuilt case, in key order, in one statement.
  ///
  /// With `patching`, only the rows a change after `bound` touched (the rows
  /// ``removeRowsChanged(of:after:from:)`` removed), one index seek each.
  private static func copyRows(
    of table: RecordedTable, upTo bound: Int64, into connection: Connection, asOf id: Int64,
    patching: Bool = false
  ) throws {
    var columns = table.columns.map { "\"\($0)\"" }
    var values = table.columns.map { "h.\(table.storedColumn(of: $0) ?? "NULL")" }
    func stored(_ column: String) -> String { "h.\(table.storedColumn(of: column)!)" }
    // The derived columns as the schema's triggers set them, so that those triggers find
    // nothing to do (docs/schema.md "Folded keys"): a key by `lower()`, or, for text beyond
    // ASCII that today's row holds too, today's key with the text it was folded from (which
    // vouches for it), so that only the texts changed since are folded in Swift after.
    var today = ""
    func keyed(_ key: String, _ foldedFrom: String, _ text: String) {
      let same = "t.\(foldedFrom) = \(stored(text))"
      columns += [key, foldedFrom]
      values += [
        "CASE WHEN \(same) THEN t.\(key) ELSE lower(\(stored(text))) END",
        "CASE WHEN \(same) THEN t.\(foldedFrom) END",
      ]
      today = "LEFT JOIN history_source.\"\(table.name)\" AS t ON t.id = h.key1"
    }
    switch table.name {
    case "animals":
      keyed("species_key", "species_folded_from", "species")
      keyed("name_key", "name_folded_from", "name")
      columns.append("suspicion_level")
      values.append(
        "coalesce((SELECT level FROM main.suspicion_levels WHERE animal_id = h.key1), 0.0)")
    case "fruits":
      keyed("name_key", "name_folded_from", "name")
    default: break
    }
    let latest =
      patching
      ? """
      SELECT (SELECT max(id) FROM history_source.history_changes
          WHERE table_id = ?1 AND key1 = c.key1 AND key2 IS c.key2 AND id <= ?2) AS id
      FROM (SELECT DISTINCT key1, key2 FROM history_source.history_changes
          WHERE id > ?2 AND +table_id = ?1) AS c
      """
      : """
      SELECT max(id) AS id
      FROM history_source.history_changes INDEXED BY history_changes_row
      WHERE table_id = ?1 AND id <= ?2
      GROUP BY key1, key2
      """
    try disagreeing(table: table.name, asOf: id) {
      try connection.execute(
        """
        INSERT INTO main."\(table.name)" (\(columns.joined(separator: ", ")))
        SELECT \(values.joined(separator: ", "))
        FROM (\(latest)) AS m
          JOIN history_source.history_changes AS h ON h.id = m.id \(today)
        WHERE h.operation <> 0
        """, [Int64(table.historyID), bound])
    }
  }

  /// Runs `body`, reading a broken rule of the schema as a history that disagrees with it.
  ///
  /// - Throws: ``CaseError/historyDisagrees(_:)`` for a constraint failure; what `body` throws.
  private static func disagreeing(table: String, asOf id: Int64, _ body: () throws -> Void)
    throws
  {
    do {
      try body()
    } catch let error as SQLiteError where error.code == .constraint {
      // Two rows the history holds at once that the schema cannot: another client's
      // REPLACE removed one under another unique key, which no trigger can record.
      let rows = table.isEmpty ? "rows" : "rows of \(table)"
      throw CaseError.historyDisagrees(
        "after change set \(id) it holds \(rows) that break a rule of the"
          + " schema (\(error.message)); 'inspector check' lists the rows it holds that the"
          + " table does not")
    }
  }
}
