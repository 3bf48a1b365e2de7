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
  /// Checks every row an entry of `entries` names and, for a suspect the undo removes, every
  /// row of it that the removal's cascade would delete.
  ///
  /// - Throws: ``CaseError/undoUnexpectedRow(changeSet:row:problem:)`` for the first such row;
  ///   ``CaseError/historyDisagrees(_:)`` for a history changed by hand; `SQLiteError`.
  func expectRowsAsRecorded(_ entries: [RecordedEntry], undoing target: Int64) throws {
    var checked: Set<String> = []
    func check(_ table: RecordedTable, _ key: [String: SQLiteValue]) throws {
      guard let keyText = table.keyText(key), checked.insert(table.name + keyText).inserted
      else { return }
      let recorded = try recordedRow(table, key: key)
      let live = try liveRow(table, key: key)
      guard let problem = difference(table, live: live, recorded: recorded) else { return }
      throw CaseError.undoUnexpectedRow(
        changeSet: target, row: try rowName(table, key), problem: problem)
    }
    for entry in entries { try check(entry.table, entry.key) }
    // Removing a suspect removes its favourites and interview by the schema's cascade.
    let children = RecordedTable.all.filter { $0.name != "animals" && $0.key.first == "animal_id" }
    for entry in entries where entry.table.name == "animals" && entry.operation == .insert {
      guard let animal = entry.key["id"], try liveRow(entry.table, key: entry.key) != nil
      else { continue }
      for child in children {
        for key in try keys(of: child, animal: animal) { try check(child, key) }
      }
    }
  }

  /// Refuses an undo of change set `target`, after its reverts and before its commit, when
  /// it leaves a row naming a fruit or suspect that is not there: a restored row whose parent
  /// is gone, or a row of a later change set that names a parent the undo removed (an incident
  /// of a fruit whose addition it reverts). The schema's foreign keys would refuse the commit
  /// with no word of which row.
  ///
  /// - Throws: ``CaseError/undoBreaksReference(changeSet:problem:)``; `SQLiteError`.
  func expectReferencesKept(_ entries: [RecordedEntry], undoing target: Int64) throws {
    var checked: Set<String> = []
    for entry in entries {
      let table = entry.table
      guard let keyText = table.keyText(entry.key), checked.insert(table.name + keyText).inserted
      else { continue }
      if let row = try liveRow(table, key: entry.key) {
        for reference in RecordedTable.references where reference.child == table.name {
          guard let id = row[reference.column], id != .null else { continue }
          let parent = try database.statement(
            "SELECT 1 FROM \"\(reference.parent)\" WHERE id = ?")
          try parent.bind([id])
          guard try parent.nextRow() == nil else { continue }
          throw CaseError.undoBreaksReference(
            changeSet: target,
            problem: "\(try rowName(table, entry.key)) would name \(reference.parent) id"
              + " \(HistoryCheck.shown(id)), which is not there")
        }
        continue
      }
      guard let id = entry.key["id"] else { continue }
      for reference in RecordedTable.references where reference.parent == table.name {
        guard let child = RecordedTable.named(reference.child) else { continue }
        let columns = child.key.map { "\"\($0)\"" }.joined(separator: ", ")
        let rows = try database.statement(
          "SELECT \(columns) FROM \"\(child.name)\" WHERE \"\(reference.column)\" = ? LIMIT 1")
        try rows.bind([id])
        guard let found = try rows.nextRow() else { continue }
        var key: [String: SQLiteValue] = [:]
        for column in child.key { key[column] = try found.value(column) }
        let named = (entry.before + entry.after).first { $0.column == "name" && $0.value != .null }
        let parent =
          named.map {
            "\(reference.parent.dropLast()) \(HistoryCheck.shown($0.value))"
              + " (id \(HistoryCheck.shown(id)))"
          } ?? "\(reference.parent) id \(HistoryCheck.shown(id))"
        throw CaseError.undoBreaksReference(
          changeSet: target,
          problem: "\(try rowName(child, key)) names \(parent), which this undo would remove")
      }
    }
  }

  // MARK: - Helpers

  /// The row of `table` with `key` as the history says it stands after every recorded change
  /// (only those before entry `bound`, when given), or `nil` when the history says there is
  /// none. A row whose key another client changed is followed back to its old key.
  ///
  /// - Throws: ``CaseError/historyDisagrees(_:)`` for an update of a row the history never
  ///   added; `SQLiteError`.
  func recordedRow(
    _ table: RecordedTable, key: [String: SQLiteValue],
    before bound: (changeSet: Int64, entry: Int64)? = nil
  ) throws -> [String: SQLiteValue]? {
    guard let keyText = table.keyText(key), let owner = key[table.owner.keyColumn] else {
      return nil
    }
    var condition =
      "e.\(table.owner.entryColumn) = ? AND e.table_name = ? AND e.row_key = ?"
    var arguments: [any SQLiteBindable] = [owner, table.name, keyText]
    if let bound {
      condition += " AND (e.change_set_id < ? OR (e.change_set_id = ? AND e.id < ?))"
      arguments += [bound.changeSet, bound.changeSet, bound.entry]
    }
    var state: [String: SQLiteValue]?
    try Self.forEachRecordedEntry(database.connection, where: condition, arguments) { entry in
      switch entry.operation {
      case .insert:
        state = Dictionary(entry.after.map { ($0.column, $0.value) }, uniquingKeysWith: { $1 })
      case .delete:
        state = nil
      case .update:
        if state == nil {
          var oldKey = entry.key
          for (column, value) in entry.before where table.key.contains(column) {
            oldKey[column] = value
          }
          if oldKey != entry.key {
            state = try recordedRow(table, key: oldKey, before: (entry.changeSet, entry.id))
          }
        }
        guard var values = state else {
          throw CaseError.historyDisagrees(
            "history entry \(entry.id) changes \(table.name) \(keyText), which it never added")
        }
        for (column, value) in entry.after { values[column] = value }
        state = values
      }
    }
    return state
  }

  /// The recorded columns of the live row of `table` with `key`, or `nil` when there is none.
  func liveRow(_ table: RecordedTable, key: [String: SQLiteValue]) throws -> [String:
    SQLiteValue]?
  {
    let columns = table.columns.map { "\"\($0)\"" }.joined(separator: ", ")
    let rows = try database.statement(
      "SELECT \(columns) FROM \"\(table.name)\" WHERE \(table.keyCondition)")
    try rows.bind(table.key.map { key[$0] ?? .null })
    guard let row = try rows.nextRow() else { return nil }
    var values: [String: SQLiteValue] = [:]
    for column in table.columns { values[column] = try row.value(column) }
    return values
  }

  /// The keys of the rows of `table` that belong to suspect `animal`: those there now and
  /// those the history names.
  private func keys(of table: RecordedTable, animal: SQLiteValue) throws -> [[String:
    SQLiteValue]]
  {
    var keys: [[String: SQLiteValue]] = []
    let columns = table.key.map { "\"\($0)\"" }.joined(separator: ", ")
    let live = try database.statement(
      "SELECT \(columns) FROM \"\(table.name)\" WHERE animal_id = ?")
    try live.bind([animal])
    while let row = try live.nextRow() {
      var key: [String: SQLiteValue] = [:]
      for column in table.key { key[column] = try row.value(column) }
      keys.append(key)
    }
    let recorded = try database.statement(
      "SELECT DISTINCT row_key FROM history_entries WHERE animal_id = ? AND table_name = ?")
    try recorded.bind([animal, table.name])
    while let row = try recorded.nextRow() {
      var key: [String: SQLiteValue] = [:]
      for (column, value) in Self.key(try row.text("row_key")) {
        if case .integer(let number) = value { key[column] = .integer(number) }
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
        "\($0) is \(HistoryCheck.shown(live[$0])), the history says"
          + " \(HistoryCheck.shown(recorded[$0]))"
      }.joined(separator: "; ")
    }
  }

  /// A row for people: its table and key, and the suspect (`Catie the Crow`) or fruit it
  /// belongs to where that is known (`suspicion_levels animal_id 4 (Catie the Crow)`).
  private func rowName(_ table: RecordedTable, _ key: [String: SQLiteValue]) throws -> String {
    let place =
      table.name + " "
      + table.key.map { "\($0) \(HistoryCheck.shown(key[$0]))" }.joined(separator: ", ")
    let owner = key[table.owner.keyColumn] ?? .null
    let name: String?
    switch table.owner.entryColumn {
    case "animal_id":
      name = try database.connection.scalar(
        "SELECT name || ' the ' || species FROM animals WHERE id = ?", [owner])?.textValue
    case "fruit_id":
      name = try database.connection.scalar(
        "SELECT name FROM fruits WHERE id = ?", [owner])?.textValue
    default:
      name = nil
    }
    return name.map { "\(place) (\(CaseError.shown($0)))" } ?? place
  }
}
