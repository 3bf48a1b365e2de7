import Testing

@testable import SQLiteKit

/// Values are equal as SQLite's `IS` compares them: text byte for byte, not by Swift's
/// canonical equivalence, so a composed and a decomposed accent are two values, as SQLite
/// stores them.
@Suite struct SQLiteValueEqualityTests {
  /// Pairs of texts that Swift's `String` calls equal but whose UTF-8 differs.
  static let lookAlikes: [(String, String)] = [
    ("caf\u{E9}", "cafe\u{301}"),  // é composed, and e with a combining acute
    ("\u{3A9}", "\u{2126}"),  // Greek capital omega, and the ohm sign
    ("\u{212B}", "\u{C5}"),  // the angstrom sign, and A with a ring above
  ]

  @Test(arguments: lookAlikes)
  func textsOfDifferentBytesDiffer(first: String, second: String) throws {
    #expect(first == second)
    #expect(Array(first.utf8) != Array(second.utf8))
    #expect(SQLiteValue.text(first) != SQLiteValue.text(second))
    #expect(Set([SQLiteValue.text(first), .text(second)]).count == 2)
    // SQLite agrees: the two are different values, and each reads back as its own bytes.
    let db = try Connection(path: ":memory:")
    let statement = try db.prepare("SELECT ? IS ?, ?, ?")
    try statement.bind([SQLiteValue.text(first), .text(second), .text(first), .text(second)])
    #expect(try statement.step())
    #expect(statement.value(at: 0) == .integer(0))
    #expect(statement.value(at: 1) == .text(first))
    #expect(statement.value(at: 2) == .text(second))
  }

  @Test func equalValuesAreEqualAndHashAlike() {
    let values: [SQLiteValue] = [.null, 7, 0.25, "caf\u{E9}", .blob([0, 255])]
    for value in values {
      #expect(value == value)
      #expect(Set([value, value]).count == 1)
    }
    // Storage classes never compare equal, whatever the value.
    #expect(SQLiteValue.integer(1) != .real(1))
    #expect(SQLiteValue.text("1") != .integer(1))
    #expect(SQLiteValue.blob(Array("a".utf8)) != .text("a"))
    #expect(Set(values).count == values.count)
  }
}
