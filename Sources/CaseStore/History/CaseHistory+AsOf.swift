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
      guard try connection.scalar("SELECT 1 FROM history_change_sets WHERE id = ?", [id]) != nil
      else { throw CaseError.unknownChangeSet(point) }
      return id
    }
    guard
      let id = try connection.scalar(
        "SELECT max(id) FROM history_change_sets WHERE at <= ?", [time])?.integerValue
    else { throw CaseError.beforeHistory(point: point, firstChangeSet: firstID, at: firstAt) }
    return id
  }

  /// The case as it stood after change set `id` (docs/history.md "As of"), rebuilt from the
  /// history alone into a new private case file (a temporary file of SQLite's own, deleted
  /// when it is released), so every reader of a case file (the suspect look-ups, the listing)
  /// works on it unchanged.
  ///
  /// The rows are streamed from the history (each row's latest change up to `id`, read from
  /// `history_changes_row` in key order) into the rebuilt case; memory stays flat (the
  /// temporary file's page cache), time grows with the rows alive at that point.
  ///
  /// - Parameter id: A change set id as ``changeSet(asOf:)`` returns it (`0`: an empty case).
  /// - Throws: ``CaseError/historyDisagrees(_:)`` for a history changed by hand, or one whose
  ///   rows then break a rule of the schema (a row another client's `REPLACE` removed under
  ///   another unique key); `SQLiteError`.
  public func rebuiltCase(asOf id: Int64) throws -> CaseDatabase {
    try rebuiltCase(asOf: id, suspect: nil)
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
    let rebuilt = try animal == nil ? CaseDatabase(temporaryFile: ()) : CaseDatabase()
    let connection = rebuilt.connection
    // The rebuilt case is a view: its own history, search index and cross-table checks have
    // nothing to add.
    try connection.execute("PRAGMA foreign_keys = OFF")
    let triggers = try connection.prepare(
      """
      SELECT name FROM sqlite_schema WHERE type = 'trigger'
        AND (substr(name, 1, 8) = 'history_' OR name GLOB '*_search_after_*')
      """)
    var names: [String] = []
    while let row = try triggers.nextRow() { names.append(try row.text("name")) }
    for name in names { try connection.execute("DROP TRIGGER \"\(name)\"") }
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
            do {
              try insert.run(values)
            } catch let error as SQLiteError where error.code == .constraint {
              // Two rows the history holds at once that the schema cannot: another client's
              // REPLACE removed one under another unique key, which no trigger can record.
              throw CaseError.historyDisagrees(
                "after change set \(id) it holds rows of \(table.name) that break a rule of the"
                  + " schema (\(error.message)); 'inspector check' lists the rows it holds that the"
                  + " table does not")
            }
          }
        }
      }
    }
    // The rows got SQL's keys: fold them as inspector does, so ties order as in the case file.
    try rebuilt.write(nil) { _ in }
    return rebuilt
  }
}
