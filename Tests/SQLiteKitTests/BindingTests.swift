import Testing

@testable import SQLiteKit

/// Values bound to parameters come back exactly, through `SELECT ?` and through a stored row.
@Suite struct BindingTests {
  let db: Connection

  init() throws {
    db = try Connection(path: ":memory:")
    // An untyped column applies no affinity, so the stored value is the bound value.
    try db.execute("CREATE TABLE box (id INTEGER PRIMARY KEY, v)")
  }

  /// Binds `value` to a one-parameter `SELECT`, and stores and reloads it.
  private func roundTrips(_ value: SQLiteValue) throws -> (
    selected: SQLiteValue, stored: SQLiteValue
  ) {
    let selected = try db.scalar("SELECT ?", [value]) ?? .integer(-1)
    try db.execute("INSERT INTO box (v) VALUES (?)", [value])
    let stored =
      try db.scalar("SELECT v FROM box WHERE id = ?", [db.lastInsertRowID]) ?? .integer(-1)
    return (selected, stored)
  }

  // MARK: - Text

  @Test(
    "Text round-trips byte for byte",
    arguments: [
      "a\u{0}b", "🐦‍⬛", "Rénard", "\u{0}", "x\u{0}", "'; DROP TABLE box; --", "line\r\nbreak",
      "e\u{301}", String(repeating: "🍐", count: 2_500),
    ])
  func textRoundTrip(text: String) throws {
    let (selected, stored) = try roundTrips(.text(text))
    #expect(selected == .text(text))
    #expect(stored == .text(text))
    #expect(stored.textValue?.utf8.count == text.utf8.count)
    let facts = try db.firstRow(
      "SELECT typeof(?1), length(CAST(?1 AS BLOB))", [text])
    #expect(facts == [.text("text"), .integer(Int64(text.utf8.count))])
    #expect(try db.count("box") == 1)
  }

  @Test func interiorNulKeepsAllThreeBytes() throws {
    try db.execute("INSERT INTO box (v) VALUES (?)", ["a\u{0}b"])
    let statement = try db.prepare("SELECT v, hex(v), length(CAST(v AS BLOB)) FROM box")
    #expect(try statement.step())
    #expect(Array(statement.text(at: 0).utf8) == [0x61, 0x00, 0x62])
    #expect(statement.text(at: 1) == "610062")
    #expect(statement.int64(at: 2) == 3)
  }

  @Test func zwjEmojiIsStoredAsItsUTF8Bytes() throws {
    let crow = "🐦‍⬛"
    let hex = try db.scalar("SELECT hex(?)", [crow])
    // U+1F426 BIRD, U+200D ZERO WIDTH JOINER, U+2B1B BLACK LARGE SQUARE.
    #expect(hex == .text("F09F90A6E2808DE2AC9B"))
    #expect(try db.scalar("SELECT ? = ?", [crow, "🐦\u{200D}⬛"]) == .integer(1))
  }

  @Test func emptyStringStaysEmptyTextNotNull() throws {
    let (selected, stored) = try roundTrips(.text(""))
    #expect(selected == .text(""))
    #expect(stored == .text(""))
    #expect(
      try db.firstRow("SELECT typeof(v), v IS NULL, v = '' FROM box")
        == [.text("text"), .integer(0), .integer(1)])
    #expect(try db.scalar("SELECT typeof(?)", [""]) == .text("text"))
  }

  @Test func tenThousandCharacterString() throws {
    let long = String((0..<10_000).map { index in Character(UnicodeScalar(97 + index % 26)!) })
    let (selected, stored) = try roundTrips(.text(long))
    #expect(selected == .text(long))
    #expect(stored == .text(long))
    #expect(try db.scalar("SELECT length(v) FROM box") == .integer(10_000))
    #expect(stored.textValue?.hasSuffix("opqrstuvwxyzabcdefghijklmnop") == true)
  }

  // MARK: - Integers

  @Test(arguments: [Int64.min, Int64.min + 1, -1, 0, 1, Int64(Int32.max) + 1, Int64.max])
  func integerRoundTrip(value: Int64) throws {
    let (selected, stored) = try roundTrips(.integer(value))
    #expect(selected == .integer(value))
    #expect(stored == .integer(value))
    #expect(try db.scalar("SELECT typeof(v) FROM box") == .text("integer"))
    let statement = try db.prepare("SELECT v FROM box")
    #expect(try statement.step())
    #expect(statement.int64(at: 0) == value)
  }

  @Test func swiftIntBoolAndOptionalBind() throws {
    let row = try db.firstRow(
      "SELECT ?, ?, ?, ?, typeof(?5)", [Int.max, true, false, Int?.none, String?.none])
    #expect(row == [.integer(Int64(Int.max)), .integer(1), .integer(0), .null, .text("null")])
  }

  // MARK: - Doubles

  @Test(
    "Doubles round-trip bit for bit",
    arguments: [
      0.1, -0.0, 0.0, Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude,
      Double.leastNormalMagnitude, Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude,
      Double.pi, 1e300, Double.infinity, -Double.infinity, 3.0,
    ])
  func doubleRoundTrip(value: Double) throws {
    let (selected, stored) = try roundTrips(.real(value))
    for result in [selected, stored] {
      guard case .real(let read) = result else {
        Issue.record("expected .real, got \(result)")
        continue
      }
      #expect(read.bitPattern == value.bitPattern)
    }
    #expect(try db.scalar("SELECT typeof(v) FROM box") == .text("real"))
    let statement = try db.prepare("SELECT v FROM box")
    #expect(try statement.step())
    #expect(statement.double(at: 0).bitPattern == value.bitPattern)
  }

  @Test func negativeZeroKeepsItsSignBit() throws {
    let (selected, stored) = try roundTrips(.real(-0.0))
    #expect(selected.doubleValue?.sign == .minus)
    #expect(stored.doubleValue?.sign == .minus)
    #expect(try db.scalar("SELECT v = 0.0 FROM box") == .integer(1))
  }

  @Test func nanBindsAsNull() throws {
    let (selected, stored) = try roundTrips(.real(.nan))
    #expect(selected == .null)
    #expect(stored == .null)
    #expect(try db.scalar("SELECT typeof(v) FROM box") == .text("null"))
    #expect(try db.scalar("SELECT ? IS NULL", [Double.nan]) == .integer(1))
  }

  // MARK: - Blobs

  /// Blob cases by name, so that test logs show the name rather than 100,000 bytes.
  static let blobCases: [String: [UInt8]] = [
    "empty": [], "one NUL": [0], "three NULs": [0, 0, 0], "mixed": [0x00, 0xFF, 0x10, 0x00],
    "every byte": Array(0...255), "100,000 bytes": [UInt8](repeating: 0xA5, count: 100_000),
  ]

  @Test("Blobs round-trip byte for byte", arguments: blobCases.keys.sorted())
  func blobRoundTrip(name: String) throws {
    let bytes = try #require(Self.blobCases[name])
    let (selected, stored) = try roundTrips(.blob(bytes))
    #expect(selected == .blob(bytes))
    #expect(stored == .blob(bytes))
    #expect(
      try db.firstRow("SELECT typeof(v), length(v) FROM box")
        == [.text("blob"), .integer(Int64(bytes.count))])
    let statement = try db.prepare("SELECT v FROM box")
    #expect(try statement.step())
    #expect(statement.blob(at: 0) == bytes)
  }

  @Test func emptyBlobIsNotNull() throws {
    #expect(try db.scalar("SELECT typeof(?)", [SQLiteValue.blob([])]) == .text("blob"))
    #expect(try db.scalar("SELECT ? = x''", [SQLiteValue.blob([])]) == .integer(1))
  }

  @Test func blobWithZeroBytesKeepsThem() throws {
    let hex = try db.scalar("SELECT hex(?)", [SQLiteValue.blob([0x00, 0x61, 0x00])])
    #expect(hex == .text("006100"))
  }

  // MARK: - Parameters

  @Test func namedParametersWithEachPrefix() throws {
    let statement = try db.prepare("SELECT :a, @b, $c, :a || '!'")
    #expect(statement.parameterCount == 3)
    #expect((1...3).map { statement.parameterName(at: $0) } == [":a", "@b", "$c"])
    try statement.bind(.text("crow"), forParameter: ":a")
    try statement.bind(.integer(7), forParameter: "@b")
    try statement.bind(.real(2.5), forParameter: "$c")
    #expect(try statement.step())
    #expect(statement.row() == [.text("crow"), .integer(7), .real(2.5), .text("crow!")])
  }

  @Test func positionalParameterHasNoName() throws {
    let statement = try db.prepare("SELECT ?, :named")
    #expect(statement.parameterName(at: 1) == nil)
    #expect(statement.parameterName(at: 2) == ":named")
  }

  @Test(arguments: [":missing", "a", "b", "@a", ""])
  func unknownParameterNameIsARangeError(name: String) throws {
    let statement = try db.prepare("SELECT :a, $b")
    expectRangeError { try statement.bind(.integer(1), forParameter: name) }
  }

  @Test func tooManyValuesIsARangeError() throws {
    let statement = try db.prepare("SELECT ?, ?")
    let error = expectRangeError { try statement.bind([1, 2, 3]) }
    #expect(error?.sql == "SELECT ?, ?")
  }

  @Test(arguments: [0, 3, -1])
  func indexOutOfRangeIsARangeError(index: Int) throws {
    let statement = try db.prepare("SELECT ?, ?")
    expectRangeError { try statement.bind(.integer(1), at: index) }
  }

  @Test func bindingAnArrayClearsEarlierBindings() throws {
    let statement = try db.prepare("SELECT ?, ?")
    try statement.bind(["dove", "crow"])
    #expect(try statement.step())
    #expect(statement.row() == [.text("dove"), .text("crow")])
    statement.reset()
    try statement.bind(["pear"])
    #expect(try statement.step())
    #expect(statement.row() == [.text("pear"), .null])
  }

  @Test func fewerValuesLeaveTheRestNull() throws {
    #expect(try db.firstRow("SELECT ?, ?", [1]) == [.integer(1), .null])
  }

  /// Expects `body` to throw an `SQLiteError` with code `.range` (SQLITE_RANGE), and returns it
  /// for further checks.
  @discardableResult
  private func expectRangeError(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
  ) -> SQLiteError? {
    let error = #expect(throws: SQLiteError.self, sourceLocation: sourceLocation) { try body() }
    #expect(error?.code == .range, sourceLocation: sourceLocation)
    return error
  }
}
