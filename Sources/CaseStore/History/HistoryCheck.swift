import SQLiteKit

/// `check`'s history check (docs/history.md "Checking the history"): replaying the whole
/// history must give the live rows of every recorded table, column for column.
///
/// A disagreement means a write went around the history's triggers (a client that dropped
/// them, a `REPLACE` that removed a row without a delete trigger, a history edited by hand):
/// undo and `--as-of` then go wrong for that row. Reported as faults, at most
/// ``limitPerTable`` per table and a count of the rest.
enum HistoryCheck {
  /// Findings listed per table before the rest are only counted.
  static let limitPerTable = 10

  /// The disagreements between the replayed history and the live rows.
  ///
  /// Holds the replayed rows in memory (as `--as-of` does).
  ///
  /// - Throws: `SQLiteError`, or ``CaseError/historyDisagrees(_:)`` when the history names a
  ///   table or column it does not record.
  static func findings(_ connection: Connection) throws -> [CheckFinding] {
    let last =
      try connection.scalar("SELECT max(id) FROM history_change_sets")?.integerValue ?? 0
    var replayed = try CaseHistory.replay(connection, upTo: last)
    var findings: [CheckFinding] = []
    let hint = "a write went around the history's triggers; undo and --as-of are wrong for it"
    for table in RecordedTable.all {
      var recorded = replayed.removeValue(forKey: table.name) ?? [:]
      var count = 0
      func report(_ values: [String: SQLiteValue], _ message: String) {
        count += 1
        guard count <= limitPerTable else { return }
        let row = table.key.map { "\($0) \(shown(values[$0]))" }.joined(separator: ", ")
        findings.append(
          CheckFinding(.fault, .history, table: table.name, row: row, message, hint: hint))
      }
      let columns = table.columns.map { "\"\($0)\"" }.joined(separator: ", ")
      let rows = try connection.prepare("SELECT \(columns) FROM \"\(table.name)\"")
      while let row = try rows.nextRow() {
        var values: [String: SQLiteValue] = [:]
        for column in table.columns { values[column] = try row.value(column) }
        guard let key = table.keyText(values) else { continue }
        guard let history = recorded.removeValue(forKey: key) else {
          report(values, "the row is not in the history")
          continue
        }
        if let column = table.columns.first(where: { (history[$0] ?? .null) != values[$0] }) {
          report(
            values,
            "\(column) is \(shown(values[column])), the history says \(shown(history[column]))")
        }
      }
      for key in recorded.keys.sorted() {
        report(recorded[key] ?? [:], "the history holds the row, the table does not")
      }
      if count > limitPerTable {
        findings.append(
          CheckFinding(
            .fault, .history, table: table.name,
            "\(count - limitPerTable) more row(s) disagree with the history", hint: hint))
      }
    }
    return findings
  }

  /// A value as SQL would quote it, cut to a readable length.
  static func shown(_ value: SQLiteValue?) -> String {
    switch value ?? .null {
    case .null: return "NULL"
    case .integer(let number): return "\(number)"
    case .real(let number): return "\(number)"
    case .text(let text): return "'" + CaseError.shown(text) + "'"
    case .blob(let bytes): return "a blob of \(bytes.count) byte(s)"
    }
  }
}
