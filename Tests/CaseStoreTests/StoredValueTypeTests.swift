import SQLiteKit
import Testing

@testable import CaseStore

/// A stored value of the wrong storage class is reported as `CaseError.invalidStoredValue`,
/// naming table, row and column, never read as 0 or "". The case tables are STRICT, so such a
/// row can only come from a table another client rebuilt without STRICT; these tests hand the
/// readers rows selected from literals instead.
@Suite struct StoredValueTypeTests {
  let connection: Connection

  init() throws {
    connection = try Connection(path: ":memory:")
  }

  /// The one row of `SELECT columns`, read with `read`.
  private func read<T>(_ columns: String, _ read: (Statement, Row) throws -> T) throws -> T {
    let statement = try connection.prepare("SELECT \(columns)")
    let row = try #require(try statement.nextRow())
    return try read(statement, row)
  }

  /// A suspect row as `SuspectRow.columns` names it, with `level` as given.
  private func suspectColumns(pawSize: String = "'small'", level: String = "0.5") -> String {
    """
    4 AS id, 'Catie' AS name, 'Crow' AS species, \(pawSize) AS paw_size, NULL AS emoji,
    '' AS statement, NULL AS sleep_at, NULL AS wake_at, \(level) AS level
    """
  }

  @Test func aWellTypedSuspectRowReads() throws {
    let suspect = try read(suspectColumns(level: "1")) { statement, row in
      try SuspectRow(statement).suspect(from: row, favorites: ["Kiwi"])
    }
    #expect(suspect.id == 4)
    #expect(suspect.species == "Crow")
    #expect(suspect.pawSize == .small)
    #expect(suspect.suspicionLevel == SuspicionLevel(1.0))
    #expect(suspect.favoriteFruits == ["Kiwi"])
  }

  @Test func aLevelStoredAsTextIsAnErrorNotZero() throws {
    let error = #expect(throws: CaseError.self) {
      try read(suspectColumns(level: "'high'")) { statement, row in
        try SuspectRow(statement).suspect(from: row, favorites: [])
      }
    }
    #expect(
      error
        == .invalidStoredValue(
          table: "suspicion_levels", id: 4, column: "level", value: "'high'",
          expected: "a number"))
    #expect(
      error?.description == "suspicion_levels id 4 holds level 'high', which is not a number")
  }

  @Test func aPawSizeStoredAsAnIntegerIsAnErrorNotText() throws {
    #expect(
      throws: CaseError.invalidStoredValue(
        table: "animals", id: 4, column: "paw_size", value: "7", expected: "text")
    ) {
      try read(suspectColumns(pawSize: "7")) { statement, row in
        try SuspectRow(statement).suspect(from: row, favorites: [])
      }
    }
  }

  @Test func aFavoriteWhoseFruitNameIsNotTextNamesTheFruit() throws {
    #expect(
      throws: CaseError.invalidStoredValue(
        table: "fruits", id: 12, column: "name", value: "X'00'", expected: "text")
    ) {
      try read("4 AS animal_id, 12 AS fruit_id, x'00' AS fruit, 0 AS fruit_missing") {
        statement, row in
        try FavoriteRow(statement).fruitName(in: row)
      }
    }
    let name = try read("4 AS animal_id, 12 AS fruit_id, 'Kiwi' AS fruit, 0 AS fruit_missing") {
      statement, row in
      try FavoriteRow(statement).fruitName(in: row)
    }
    #expect(name == "Kiwi")
  }

  @Test func anUnknownColumnIsADefectNotAStoredValue() throws {
    // A query whose columns do not match its reader fails before any row is read.
    #expect(throws: RowDecodingError.self) {
      try read("4 AS id, 'Catie' AS name") { statement, _ in try SuspectRow(statement) }
    }
  }

  @Test func storedRowNamesTheTableOfEachColumn() throws {
    #expect(
      throws: CaseError.invalidStoredValue(
        table: "sleep_schedules", id: 9, column: "sleep_at", value: "X'CAFE'", expected: "text")
    ) {
      try read("x'CAFE' AS sleep_at") { _, row in
        try StoredRow.read("animals", tables: ["sleep_at": "sleep_schedules"], id: 9) {
          try row.text("sleep_at")
        }
      }
    }
    #expect(
      throws: CaseError.invalidStoredValue(
        table: "animals", id: 9, column: "name", value: "NULL", expected: "text")
    ) {
      try read("NULL AS name") { _, row in
        try StoredRow.read("animals", id: 9) { try row.text("name") }
      }
    }
  }
}
