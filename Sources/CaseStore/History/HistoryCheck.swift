import SQLiteKit

/// `check`'s history check (docs/history.md "Checking the history"): every row's latest
/// recorded state must be the live row of its recorded table, column for column.
///
/// A disagreement means a write went around the history's triggers (a client that dropped
/// them, a `REPLACE` that removed a row under another unique key, a history edited by hand):
/// undo and `--as-of` then go wrong for that row. Reported as faults, at most
/// ``limitPerTable`` per table and a count of the rest.
enum HistoryCheck {
  /// Findings listed per table before the rest are only counted.
  static let limitPerTable = 10

  /// The disagreements between the history and the live rows.
  ///
  /// Streams: each live row is compared in SQL with its latest change (one seek of
  /// `history_changes_row`), and only rows that may disagree reach Swift; then the history's
  /// latest rows that the table does not hold; only the findings are kept.
  ///
  /// - Parameter tables: The tables already known to need the passes that name rows (from
  ///   ``findingsWithChain(_:)``); `nil` tries each table's one-pass ``agrees(_:_:)`` first.
  /// - Throws: `SQLiteError`, or ``CaseError/historyDisagrees(_:)`` when the history names a
  ///   table or operation it does not record.
  static func findings(
    _ connection: Connection, tables: [RecordedTable]? = nil
  ) throws -> [CheckFinding] {
    var findings: [CheckFinding] = []
    let hint = "a write went around the history's triggers; undo and --as-of are wrong for it"
    // A table that agrees in one pass is done; the others (and any that pass cannot read) get
    // the two passes that name the rows.
    let checked =
      tables ?? RecordedTable.all.filter { (try? agrees(connection, $0)) != true }
    for table in checked {
      var count = 0
      func report(_ values: [String: SQLiteValue], _ message: String) {
        count += 1
        guard count <= limitPerTable else { return }
        let row = table.key.map { "\($0) \(shown(values[$0]))" }.joined(separator: ", ")
        findings.append(
          CheckFinding(.fault, .history, table: table.name, row: row, message, hint: hint))
      }
      let quoted = table.columns.map { "t.\"\($0)\" AS \"live.\($0)\"" }
        .joined(separator: ", ")
      let keyMatch =
        table.key.enumerated().map { "h.key\($0 + 1) = t.\"\($1)\"" }
        .joined(separator: " AND ") + (table.key.count == 1 ? " AND h.key2 IS NULL" : "")
      // SQL passes on only the rows that may disagree: no change, a delete, or a column whose
      // value or type differs from the stored one (byte for byte: a superset of what the
      // comparison below reports, which decides), so an agreeing row costs no Swift.
      let differs = table.liveDiffersFromChange.joined(separator: " OR ")
      let live = try connection.prepare(
        """
        SELECT \(quoted), \(StoredChange.columns("h"))
        FROM "\(table.name)" AS t LEFT JOIN history_changes AS h ON h.id = (
          SELECT max(h.id) FROM history_changes AS h
          WHERE h.table_id = \(table.historyID) AND \(keyMatch))
        WHERE h.id IS NULL OR h.operation = 0 OR \(differs)
        """)
      while let row = try live.nextRow() {
        var values: [String: SQLiteValue] = [:]
        for column in table.columns { values[column] = try row.value("live.\(column)") }
        guard try row.value("id") != .null, let history = try StoredChange(row).row else {
          report(values, "the row is not in the history")
          continue
        }
        if let column = table.columns.first(where: { (history[$0] ?? .null) != values[$0] }) {
          let (live, recorded) = shownApart(values[column], history[column])
          report(values, "\(column) is \(live), the history says \(recorded)")
        }
      }
      // Each row's latest change that is not a delete, where the table holds no such row.
      let liveKey = table.key.enumerated().map { "\"\($1)\" = h.key\($0 + 1)" }
        .joined(separator: " AND ")
      try CaseHistory.forEachRecordedRow(
        connection, table, upTo: .max,
        where: "NOT EXISTS (SELECT 1 FROM \"\(table.name)\" WHERE \(liveKey))"
      ) { change in
        report(change.keyValues, "the history holds the row, the table does not")
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

  /// `true` when every row of `table` is, column for column, its latest change, and every
  /// latest change that is not a delete is a row of `table`: the case of a sound file, told in
  /// one pass of SQL that hands Swift two numbers.
  ///
  /// One walk of `history_changes_row` in key order (each key's latest change), each latest
  /// change read by rowid and its live row looked up by key in the same order, then a count of
  /// the table: every live row is then matched by exactly one latest change. `false` is
  /// conservative: anything unusual (an operation it does not know, a second key on a
  /// one-key table) sends the table to ``findings(_:)``'s two passes, which decide and name
  /// the rows.
  ///
  /// - Throws: `SQLiteError`.
  static func agrees(_ connection: Connection, _ table: RecordedTable) throws -> Bool {
    let oneKey = table.key.count == 1 ? " OR h.key2 IS NOT NULL" : ""
    let disagrees = "h.operation NOT IN (0, 1, 2)\(oneKey) OR \(table.liveDisagreesWithChange)"
    let pass = try connection.prepare(
      """
      SELECT count(*) FILTER (WHERE h.operation <> 0 AND \(table.livePresent)),
        count(*) FILTER (WHERE \(disagrees))
      FROM (SELECT max(id) AS id FROM history_changes INDEXED BY history_changes_row
          WHERE table_id = \(table.historyID) GROUP BY key1, key2) AS m
        JOIN history_changes AS h ON h.id = m.id
        LEFT JOIN "\(table.name)" AS t ON \(table.liveKeyEquals("h"))
      """)
    guard try pass.step(), pass.int64(at: 1) == 0 else { return false }
    let matched = pass.int64(at: 0)
    let rows = try connection.scalar("SELECT count(*) FROM \"\(table.name)\"")?.integerValue
    return rows == matched
  }

  /// Two values that differ, as ``shown(_:)`` writes them; when they would read alike (texts
  /// of the same characters in different bytes, such as an accent composed and decomposed),
  /// each with its UTF-8 bytes in hex after it (`'café' (UTF-8 63 61 66 C3 A9)`).
  static func shownApart(_ first: SQLiteValue?, _ second: SQLiteValue?) -> (String, String) {
    let (left, right) = (shown(first), shown(second))
    guard left == right else { return (left, right) }
    func bytes(_ value: SQLiteValue?) -> String {
      guard case .text(let text) = value ?? .null else { return "" }
      return " (UTF-8 " + text.utf8.map { SHA256.hex([$0]).uppercased() }.joined(separator: " ")
        + ")"
    }
    return (left + bytes(first), right + bytes(second))
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
