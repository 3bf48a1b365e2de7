import SQLiteKit
import Testing

@testable import CaseStore

/// Every nullable recorded column, taken from NULL to a value, to another value and back to
/// NULL (migration 0007, docs/history.md "What is recorded": the triggers compare with SQL's
/// `IS NOT`, so a change from or to NULL is a change). A trigger that compared with `<>` would
/// record nothing for NULL to a value, and undo would then have nothing to revert.
@Suite("History of nullable columns")
struct NullableColumnHistoryTests {
  /// One nullable column of a recorded table, a row of the seed case that has it, and two
  /// different values it may hold.
  struct NullableColumn: Sendable, CustomTestStringConvertible {
    let table: String
    let column: String
    /// The row's `id`.
    let row: Int64
    let values: (SQLiteValue, SQLiteValue)

    var testDescription: String { "\(table).\(column)" }
  }

  /// Every nullable recorded column (``theListHoldsEveryNullableRecordedColumn()`` fails when
  /// the schema gets another one).
  static let columns = [
    NullableColumn(
      table: "animals", column: "emoji", row: 4, values: (.text("🐦"), .text("🦉"))),
    NullableColumn(
      table: "incidents", column: "paw_size", row: 1, values: (.text("small"), .text("large"))),
    NullableColumn(
      table: "incidents", column: "latitude", row: 1, values: (.real(37.334371), .real(-12.5))),
    NullableColumn(
      table: "incidents", column: "longitude", row: 1, values: (.real(-122.009558), .real(45.25))
    ),
  ]

  @Test func theListHoldsEveryNullableRecordedColumn() throws {
    let database = try CaseDatabase()
    var nullable: [String] = []
    for table in RecordedTable.all {
      for row in try database.rows(
        "SELECT name FROM pragma_table_info(?) WHERE \"notnull\" = 0 AND pk = 0 ORDER BY cid",
        [table.name])
      {
        guard case .text(let column) = row[0], table.columns.contains(column) else { continue }
        nullable.append("\(table.name).\(column)")
      }
    }
    #expect(nullable.sorted() == Self.columns.map(\.testDescription).sorted())
  }

  @Test(arguments: columns)
  func eachStepIsRecordedAndUndone(_ nullable: NullableColumn) throws {
    let database = try seededDatabase()
    // One column at a time, as another client with the schema's checks off may write it
    // (latitude and longitude are to be set together): the history records what is stored.
    try database.connection.execute("PRAGMA ignore_check_constraints = ON")
    let table = nullable.table
    let column = nullable.column
    func stored() throws -> SQLiteValue {
      try database.connection.scalar(
        "SELECT \"\(column)\" FROM \"\(table)\" WHERE id = ?", [nullable.row]) ?? .null
    }
    func store(_ value: SQLiteValue) throws {
      try database.write(nil) { db in
        try db.connection.execute(
          "UPDATE \"\(table)\" SET \"\(column)\" = ? WHERE id = ?", [value, nullable.row])
      }
    }
    if try stored() != .null { try store(.null) }

    var previous = SQLiteValue.null
    for value in [nullable.values.0, nullable.values.1, .null] {
      try store(value)
      // Exactly this change: the row, the operation, the column's new value as stored.
      let recorded = try #require(RecordedTable.named(table))
      let slot = try #require(recorded.slot(of: column))
      let changes = try database.rows(
        """
        SELECT table_id, key1, key2, operation, \(slot) FROM history_changes
        WHERE id >= (SELECT first_change_id FROM history_change_sets ORDER BY id DESC LIMIT 1)
        """)
      #expect(
        changes == [
          [.integer(Int64(recorded.historyID)), .integer(nullable.row), .null, .integer(2), value]
        ], "\(previous) -> \(value)")
      // Read back: both values, the before value derived from the row's previous change.
      let changeSet = try #require(
        try database.connection.scalar("SELECT max(id) FROM history_change_sets")?.integerValue)
      var entries: [CaseHistory.RecordedEntry] = []
      try CaseHistory(database: database).forEachRecordedEntry(of: changeSet) {
        entries.append($0)
      }
      let entry = try #require(entries.first)
      #expect(entry.operation == .update)
      #expect(entry.before.map(\.column) == [column] && entry.before.map(\.value) == [previous])
      #expect(entry.after.map(\.column) == [column] && entry.after.map(\.value) == [value])

      // Undo gives the previous value back; redo (reverting the undo), this one.
      let undo = try database.write(nil) { try $0.history.undo() }
      #expect(undo.changes == 1, "undo of \(previous) -> \(value)")
      #expect(try stored() == previous)
      _ = try database.write(nil) { try $0.redo() }
      #expect(try stored() == value)
      previous = value
    }
    #expect(try HistoryCheck.findings(database.connection).isEmpty)
  }
}
