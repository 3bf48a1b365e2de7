import SQLiteKit

extension CaseHistory {
  // MARK: - Rows as the history says

  /// Refuses an undo of change set `target` when a row it would write is not, in every
  /// recorded column, what the history says the row holds now (docs/history.md "Undo"): a row
  /// that is there although the history says it is not, a row that is gone although the
  /// history holds it, or a column whose value differs. Such a row was written around the
  /// history's triggers (by a client that dropped them), and the undo would overwrite a value
  /// it never saw.
  ///
  /// Checks every row a change of `target` names (the first of them in the order of their
  /// first change is the one reported), and, for a suspect the undo removes, every other row
  /// of it that the removal's cascade would delete, ``batchSize`` suspects at a time: memory
  /// does not grow with the change set.
  ///
  /// The rows `target` names are compared in SQL, one statement per table
  /// (``rowsThatMayDiffer(_:)``), and only those that may differ are read into Swift, which
  /// decides; reading each row into Swift was a fifth of an undo's instructions.
  ///
  /// - Throws: ``CaseError/undoUnexpectedRow(changeSet:row:problem:)`` for the first such row;
  ///   ``CaseError/historyDisagrees(_:)`` for a history changed by hand; `SQLiteError`.
  func expectRowsAsRecorded(undoing target: Int64) throws {
    func problem(_ table: RecordedTable, _ key: [String: SQLiteValue]) throws -> CaseError? {
      guard table.rowIdentity(key) != nil else { return nil }
      let recorded = try recordedRow(table, key: key)
      let live = try liveRow(table, key: key)
      guard let problem = difference(table, live: live, recorded: recorded) else { return nil }
      return CaseError.undoUnexpectedRow(
        changeSet: target, row: try rowName(table, key), problem: problem)
    }
    func check(_ table: RecordedTable, _ key: [String: SQLiteValue]) throws {
      if let problem = try problem(table, key) { throw problem }
    }
    let range = try ChangeSetBounds(connection: database.connection).changes(of: target)
    // The first problem by the first change of its row in `target`, of any table: a row that
    // differs, or a change edited by hand (which reading the row's changes throws for), as
    // comparing the rows one by one in that order would have met them.
    let (tables, unknown) = try tablesChanged(in: range)
    var first = unknown
    for table in tables {
      let rows = try database.statement(Self.rowsThatMayDiffer(table))
      try rows.bind([range.lowerBound, range.upperBound])
      while try rows.step() {
        let change = rows.int64(at: 0)
        guard first.map({ change < $0.change }) ?? true else { break }
        var key: [String: SQLiteValue] = [:]
        for (index, column) in table.key.enumerated() { key[column] = rows.value(at: 1 + index) }
        let found: CaseError?
        do { found = try problem(table, key) } catch let error as CaseError { found = error }
        guard let found else { continue }
        first = (change, found)
        break
      }
    }
    if let first { throw first.problem }
    // Removing a suspect removes its favourites and interview by the schema's cascade.
    // The suspects' rows are read a few hundred suspects at a time, not one by one.
    let children = RecordedTable.all.filter { $0.name != "animals" && $0.key.first == "animal_id" }
    var animals: [SQLiteValue] = []
    func checkChildren() throws {
      for child in children {
        for key in try keys(of: child, animals: animals, notChangedBy: target, range: range) {
          try check(child, key)
        }
      }
      animals.removeAll(keepingCapacity: true)
    }
    let suspects = RecordedTable.named("animals")?.historyID
    try forEachRecordedEntry(of: target, tableID: suspects) { entry in
      guard entry.operation == .insert, let animal = entry.key["id"],
        try liveRow(entry.table, key: entry.key) != nil
      else { return }
      animals.append(animal)
      if animals.count == Self.batchSize { try checkChildren() }
    }
    try checkChildren()
  }

  /// How many suspects one look-up of their rows names (bound parameters, below SQLite's
  /// limit).
  static let batchSize = 500

  /// The recorded tables that the changes with ids in `range` name, in ``RecordedTable/all``
  /// order, and the first change (the smallest id) naming a table the history does not record
  /// (a history changed by hand), with the error that names it: one scan of the range.
  ///
  /// - Throws: `SQLiteError`.
  private func tablesChanged(in range: Range<Int64>) throws -> (
    tables: [RecordedTable], unknown: (change: Int64, problem: CaseError)?
  ) {
    let rows = try database.statement(
      "SELECT table_id, min(id) FROM history_changes WHERE id >= ? AND id < ? GROUP BY table_id")
    try rows.bind([range.lowerBound, range.upperBound])
    var numbers: Set<Int64> = []
    var unknown: (change: Int64, problem: CaseError)?
    while try rows.step() {
      let number = rows.value(at: 0)
      let change = rows.int64(at: 1)
      if let id = number.integerValue, RecordedTable.numbered(id) != nil {
        numbers.insert(id)
      } else if unknown.map({ change < $0.change }) ?? true {
        unknown = (
          change, CaseError.historyDisagrees("history names table \(HistoryCheck.shown(number))")
        )
      }
    }
    return (RecordedTable.all.filter { numbers.contains(Int64($0.historyID)) }, unknown)
  }

  /// For the changes of `table` with ids in `?1 ..< ?2` (a change set's range): each row they
  /// name, once, that may not be as the history says, as its first change's id then its key
  /// columns (`key1`, `key2`), in the order of that first change. A superset: the row whose
  /// latest change is a delete and that is there, the row whose latest change is not a delete
  /// and that is not there or holds a value that differs in value or type from it, and any
  /// row of a history changed by hand (a key that is not an integer, a second key on a
  /// one-key table). Each row costs two seeks (its latest change and its live row) and no
  /// Swift.
  static func rowsThatMayDiffer(_ table: RecordedTable) -> String {
    let unusual =
      "typeof(k.key1) <> 'integer'"
      + (table.key.count == 1 ? " OR k.key2 IS NOT NULL" : " OR typeof(k.key2) <> 'integer'")
      + " OR h.operation IS NULL OR h.operation NOT IN (0, 1, 2)"
    return """
      SELECT k.first, k.key1, k.key2
      FROM (SELECT key1, key2, min(id) AS first FROM history_changes
          WHERE id >= ?1 AND id < ?2 AND table_id = \(table.historyID)
          GROUP BY key1, key2) AS k
        LEFT JOIN history_changes AS h ON h.id = (
          SELECT max(id) FROM history_changes
          WHERE table_id = \(table.historyID) AND key1 = k.key1 AND key2 IS k.key2)
        LEFT JOIN "\(table.name)" AS t ON \(table.liveKeyEquals("k"))
      WHERE \(unusual) OR \(table.liveDisagreesWithChange)
      ORDER BY k.first
      """
  }

  /// Refuses an undo of change set `target`, after its reverts and before its commit, when
  /// it leaves a row naming a fruit or suspect that is not there: a restored row whose parent
  /// is gone, or a row of a later change set that names a parent the undo removed (an incident
  /// of a fruit whose addition it reverts). The schema's foreign keys would refuse the commit
  /// with no word of which row. Reads each row `target` changed once
  /// (``forEachRowChanged(by:_:)``), so memory does not grow with the change set.
  ///
  /// - Throws: ``CaseError/undoBreaksReference(changeSet:problem:)``; `SQLiteError`.
  func expectReferencesKept(undoing target: Int64) throws {
    try forEachRowChanged(by: target) { table, key in
      if let row = try liveRow(table, key: key) {
        for reference in RecordedTable.references where reference.child == table.name {
          guard let id = row[reference.column], id != .null else { continue }
          let parent = try database.statement(
            "SELECT 1 FROM \"\(reference.parent)\" WHERE id = ?")
          try parent.bind([id])
          guard try parent.nextRow() == nil else { continue }
          throw CaseError.undoBreaksReference(
            changeSet: target,
            problem: "\(try rowName(table, key)) would name \(reference.parent) id"
              + " \(HistoryCheck.shown(id)), which is not there")
        }
        return
      }
      guard let id = key["id"] else { return }
      // A removed suspect's rows went with it by the cascade: only the references that do not
      // cascade (to fruits) can be left naming a parent that is gone.
      for reference in RecordedTable.references
      where reference.parent == table.name && !reference.cascades {
        guard let child = RecordedTable.named(reference.child) else { continue }
        let columns = child.key.map { "\"\($0)\"" }.joined(separator: ", ")
        let rows = try database.statement(
          "SELECT \(columns) FROM \"\(child.name)\" WHERE \"\(reference.column)\" = ? LIMIT 1")
        try rows.bind([id])
        guard let found = try rows.nextRow() else { continue }
        var childKey: [String: SQLiteValue] = [:]
        for column in child.key { childKey[column] = try found.value(column) }
        // The parent's name as the row's first change in `target` holds it.
        let entry = try firstEntry(of: table, key: key, in: target)
        let named = entry.flatMap { entry in
          (entry.before + entry.after).first { $0.column == "name" && $0.value != .null }
        }
        let parent =
          named.map {
            "\(reference.parent.dropLast()) \(HistoryCheck.shown($0.value))"
              + " (id \(HistoryCheck.shown(id)))"
          } ?? "\(reference.parent) id \(HistoryCheck.shown(id))"
        throw CaseError.undoBreaksReference(
          changeSet: target,
          problem: "\(try rowName(child, childKey)) names \(parent), which this undo would remove")
      }
    }
  }

  // MARK: - Helpers

  /// The row of `table` with `key` as the history says it stands after every recorded change
  /// (only those with an id up to `lastChange`, when given: the changes of the change sets up
  /// to one, ``lastChange(_:upTo:)``), or `nil` when the history says there is none: the
  /// row's latest change (one seek of `history_changes_row`).
  ///
  /// - Throws: ``CaseError/historyDisagrees(_:)`` for a history changed by hand;
  ///   `SQLiteError`.
  func recordedRow(
    _ table: RecordedTable, key: [String: SQLiteValue], through lastChange: Int64? = nil
  ) throws -> [String: SQLiteValue]? {
    let values = table.key.map { key[$0] ?? .null }
    guard values.allSatisfy({ $0.integerValue != nil }) else { return nil }
    return try Self.latestChange(
      database.connection, table, key: values, before: lastChange.map { $0 &+ 1 })?.row
  }

  /// The recorded columns of the live row of `table` with `key`, or `nil` when there is none.
  func liveRow(_ table: RecordedTable, key: [String: SQLiteValue]) throws -> [String:
    SQLiteValue]?
  {
    let rows = try database.statement(table.liveRowQuery)
    try rows.bind(table.key.map { key[$0] ?? .null })
    guard try rows.step() else { return nil }
    var values: [String: SQLiteValue] = [:]
    for (index, column) in table.columns.enumerated() { values[column] = rows.value(at: index) }
    return values
  }

  /// The keys of the rows of `table` that belong to the suspects `animals` (at most
  /// ``batchSize``): those there now and those the history names, each once, leaving out the
  /// rows change set `changeSet` (whose changes lie in `range`) changed
  /// (``expectRowsAsRecorded(undoing:)`` checks those already).
  private func keys(
    of table: RecordedTable, animals: [SQLiteValue], notChangedBy changeSet: Int64,
    range: Range<Int64>
  ) throws -> [[String: SQLiteValue]] {
    guard !animals.isEmpty else { return [] }
    let marks = Array(repeating: "?", count: animals.count).joined(separator: ", ")
    let second = table.key.count > 1 ? "\"\(table.key[1])\"" : "NULL"
    let rows = try database.statement(
      """
      SELECT key1, key2 FROM (
        SELECT animal_id AS key1, \(second) AS key2 FROM "\(table.name)"
        WHERE animal_id IN (\(marks))
        UNION
        SELECT key1, key2 FROM history_changes
        WHERE table_id = \(table.historyID) AND key1 IN (\(marks))) AS k
      WHERE NOT EXISTS (SELECT 1 FROM history_changes AS c
        WHERE c.table_id = \(table.historyID) AND c.key1 = k.key1 AND c.key2 IS k.key2
          AND c.id >= ? AND c.id < ?)
      """)
    try rows.bind(animals + animals + [range.lowerBound, range.upperBound])
    var keys: [[String: SQLiteValue]] = []
    while let row = try rows.nextRow() {
      var key: [String: SQLiteValue] = [:]
      for (index, column) in table.key.enumerated() {
        key[column] = try row.value("key\(index + 1)")
      }
      keys.append(key)
    }
    return keys
  }

  /// What differs between the live row and the history's, in words with both values, or
  /// `nil` when they agree in every recorded column.
  private func difference(
    _ table: RecordedTable, live: [String: SQLiteValue]?, recorded: [String: SQLiteValue]?
  ) -> String? {
    func listed(_ values: [String: SQLiteValue]) -> String {
      table.columns.filter { !table.key.contains($0) }
        .map { "\($0) \(HistoryCheck.shown(values[$0]))" }.joined(separator: ", ")
    }
    switch (live, recorded) {
    case (nil, nil):
      return nil
    case (let live?, nil):
      return "the row is there (\(listed(live))), the history says there is no such row"
    case (nil, let recorded?):
      return "the row is not there, the history says it holds \(listed(recorded))"
    case (let live?, let recorded?):
      let differing = table.columns.filter { (live[$0] ?? .null) != (recorded[$0] ?? .null) }
      guard !differing.isEmpty else { return nil }
      return differing.map {
        let (now, then) = HistoryCheck.shownApart(live[$0], recorded[$0])
        return "\($0) is \(now), the history says \(then)"
      }.joined(separator: "; ")
    }
  }

  /// A row for people: its table and key, and the suspect (`Catie the Crow`) or fruit it
  /// belongs to where that is known (`suspicion_levels animal_id 4 (Catie the Crow)`). A
  /// suspect or fruit row that is not stored (one an undo is putting back) is named by its
  /// `recorded` values when given.
  func rowName(
    _ table: RecordedTable, _ key: [String: SQLiteValue],
    recorded: [String: SQLiteValue] = [:]
  ) throws -> String {
    let place =
      table.name + " "
      + table.key.map { "\($0) \(HistoryCheck.shown(key[$0]))" }.joined(separator: ", ")
    let owner = key[table.owner.keyColumn] ?? .null
    let name: String?
    switch table.owner.entryColumn {
    case "animal_id":
      name =
        try database.connection.scalar(
          "SELECT name || ' the ' || species FROM animals WHERE id = ?", [owner])?.textValue
        ?? (table.name == "animals" ? recorded["name"]?.textValue : nil).flatMap { name in
          recorded["species"]?.textValue.map { "\(name) the \($0)" }
        }
    case "fruit_id":
      name =
        try database.connection.scalar(
          "SELECT name FROM fruits WHERE id = ?", [owner])?.textValue
        ?? (table.name == "fruits" ? recorded["name"]?.textValue : nil)
    default:
      name = nil
    }
    return name.map { "\(place) (\(CaseError.shown($0)))" } ?? place
  }
}
