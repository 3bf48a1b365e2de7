import Testing

@testable import SQLiteKit

/// `Row`: reading by column name, with conversions that throw instead of defaulting.
@Suite struct RowTests {
  let db: Connection

  init() throws {
    db = try Connection(path: ":memory:")
    try db.execute(
      """
      CREATE TABLE suspect (id INTEGER PRIMARY KEY, name TEXT, level ANY, emoji TEXT, photo BLOB);
      INSERT INTO suspect VALUES (1, 'Fabrizio', 0.75, NULL, x'CAFE');
      INSERT INTO suspect VALUES (2, 'Crow', 1, '🐦', NULL);
      INSERT INTO suspect VALUES (3, NULL, 'high', NULL, 'not bytes');
      """)
  }

  /// The row of suspect `id`, selected with `columns` (the row keeps its statement alive).
  private func row(_ id: Int64, columns: String = "id, name, level, emoji, photo") throws -> Row {
    let statement = try db.prepare("SELECT \(columns) FROM suspect WHERE id = ?")
    try statement.bind([id])
    guard let row = try statement.nextRow() else {
      throw SQLiteError(extendedCode: .error, message: "no row")
    }
    return row
  }

  private func mismatch(_ error: RowDecodingError?) -> (StorageClass, SQLiteValue)? {
    guard case .mismatch(let expected, let found) = error?.reason else { return nil }
    return (expected, found)
  }

  // MARK: - Values

  @Test func readsEachStorageClassByName() throws {
    do {
      let row = try self.row(1)
      #expect(try row.int64("id") == 1)
      #expect(try row.text("name") == "Fabrizio")
      #expect(try row.double("level") == 0.75)
      #expect(try row.optionalText("emoji") == nil)
      #expect(try row.blob("photo") == [0xCA, 0xFE])
      #expect(try row.value("photo") == .blob([0xCA, 0xFE]))
    }
    do {
      let row = try self.row(2)
      #expect(try row.optionalText("emoji") == "🐦")
      #expect(try row.optionalBlob("photo") == nil)
      #expect(try row.optionalInt64("level") == 1)
      #expect(try row.value("photo") == .null)
    }
  }

  @Test func anIntegerReadsAsADouble() throws {
    #expect(try row(2).double("level") == 1.0)
    #expect(try row(2).optionalDouble("level") == 1.0)
  }

  @Test func namesAreAsNamesAndPositionsFollowTheSelect() throws {
    do {
      let row = try self.row(1, columns: "photo, upper(name) AS shout, id AS suspect_id")
      #expect(try row.text("shout") == "FABRIZIO")
      #expect(try row.int64("suspect_id") == 1)
      #expect(try row.statement.column("suspect_id").index == 2)
    }
  }

  @Test func resolvedColumnsReadEveryRow() throws {
    let statement = try db.prepare(
      "SELECT id, name FROM suspect WHERE name IS NOT NULL ORDER BY id")
    let id = try statement.column("id")
    let name = try statement.column("name")
    var names: [Int64: String] = [:]
    while let row = try statement.nextRow() { names[try row.int64(id)] = try row.text(name) }
    #expect(names == [1: "Fabrizio", 2: "Crow"])
  }

  @Test func theCurrentRowOfAStepLoopReadsByName() throws {
    let statement = try db.prepare("SELECT name FROM suspect WHERE id = 2")
    #expect(try statement.step())
    #expect(try statement.currentRow.text("name") == "Crow")
  }

  @Test func emptyTextAndZeroAreNotNull() throws {
    do {
      let row = try self.row(1, columns: "'' AS blank, 0 AS zero, x'' AS empty_blob")
      #expect(try row.optionalText("blank") == "")
      #expect(try row.optionalInt64("zero") == 0)
      #expect(try row.blob("empty_blob") == [])
    }
  }

  // MARK: - Failures

  @Test func nullIntoANonOptionalReaderThrows() throws {
    let error = #expect(throws: RowDecodingError.self) { try row(3).text("name") }
    #expect(error?.column == "name")
    #expect(mismatch(error)?.0 == .text)
    #expect(mismatch(error)?.1 == .null)
    #expect(throws: RowDecodingError.self) { try row(1).int64("emoji") }
    #expect(throws: RowDecodingError.self) { try row(1).double("emoji") }
    #expect(throws: RowDecodingError.self) { try row(2).blob("photo") }
  }

  @Test func textIntoAnIntegerThrows() throws {
    let error = #expect(throws: RowDecodingError.self) { try row(3).int64("level") }
    #expect(mismatch(error)?.0 == .integer)
    #expect(mismatch(error)?.1 == .text("high"))
    #expect(error?.sql == "SELECT id, name, level, emoji, photo FROM suspect WHERE id = ?")
    #expect(throws: RowDecodingError.self) { try row(3).optionalInt64("level") }
    #expect(throws: RowDecodingError.self) { try row(3).double("level") }
    #expect(throws: RowDecodingError.self) { try row(3).optionalDouble("level") }
  }

  @Test func otherStorageClassesAreNotConverted() throws {
    // A real is not an integer (not even 2.0), an integer is not text, text is not a blob.
    let real = #expect(throws: RowDecodingError.self) { try row(1).int64("level") }
    #expect(mismatch(real)?.1 == .real(0.75))
    #expect(throws: RowDecodingError.self) {
      try row(1, columns: "2.0 AS two").int64("two")
    }
    let integer = #expect(throws: RowDecodingError.self) {
      try row(3, columns: "7 AS seven").optionalText("seven")
    }
    #expect(mismatch(integer)?.0 == .text)
    #expect(mismatch(integer)?.1 == .integer(7))
    #expect(throws: RowDecodingError.self) { try row(3).optionalBlob("photo") }
    #expect(throws: RowDecodingError.self) { try row(1).text("photo") }
  }

  @Test func anUnknownColumnNameThrows() throws {
    let error = #expect(throws: RowDecodingError.self) { try row(1).text("species") }
    #expect(error?.reason == .unknownColumn)
    #expect(error?.column == "species")
    // Names are exact: no case folding, no table prefix.
    #expect(throws: RowDecodingError.self) { try row(1).text("Name") }
    #expect(throws: RowDecodingError.self) { try row(1).text("suspect.name") }
    #expect(throws: RowDecodingError.self) { try db.prepare("SELECT 1 AS one").column("two") }
  }

  @Test func aNameTwoColumnsShareIsAmbiguous() throws {
    let error = #expect(throws: RowDecodingError.self) {
      try row(1, columns: "name, upper(name) AS name").text("name")
    }
    #expect(error?.reason == .ambiguousColumn)
  }

  @Test func theDescriptionNamesTheColumnAndClassesButNotTheValue() throws {
    let error = #expect(throws: RowDecodingError.self) { try row(3).int64("level") }
    let description = error.map(String.init(describing:)) ?? ""
    #expect(description.hasPrefix("column level holds text, expected integer [SQL: SELECT"))
    #expect(!description.contains("high"))
  }
}
