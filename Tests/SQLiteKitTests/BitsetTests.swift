import Testing

@testable import SQLiteKit

/// `Connection.collectIntegers(_:_:base:into:)` and its aggregate `sqlitekit_bitset`.
@Suite struct BitsetTests {
  @Test func setsTheBitOfEveryIntegerInRangeAndCountsEveryRow() throws {
    let connection = try Connection(path: ":memory:", mode: .readWriteCreate)
    try connection.execute(
      """
      CREATE TABLE v (x);
      INSERT INTO v VALUES (-3), (-2), (0), (63), (64), (124), (125), (NULL), ('5'), (2.0), (x'01');
      """)
    var words: [UInt64] = [0, 1 << 40]
    let seen = try connection.collectIntegers(
      "SELECT sqlitekit_bitset(x) FROM v WHERE x IS NOT ?", [7], base: -2, into: &words)
    #expect(seen == 11)
    // -2 -> bit 0, 0 -> bit 2, 63 -> bit 65 (word 1, bit 1), 64 -> word 1 bit 2,
    // 124 -> word 1 bit 62, 125 -> word 1 bit 63; -3 is below the range; the bit set before stays.
    #expect(words[0] == 0b101)
    let expected: UInt64 = (1 << 1) | (1 << 2) | (1 << 62) | (1 << 63) | (1 << 40)
    #expect(words[1] == expected)
    var none: [UInt64] = [0]
    #expect(
      try connection.collectIntegers(
        "SELECT sqlitekit_bitset(x) FROM v WHERE 0", [], base: 0, into: &none) == 0)
    #expect(none == [0])
  }

  /// Outside `collectIntegers` the function counts rows and sets nothing; triggers and views
  /// may not call it.
  @Test func onlyDirectSQLMayCallIt() throws {
    let connection = try Connection(path: ":memory:", mode: .readWriteCreate)
    try connection.execute("CREATE TABLE v (x); INSERT INTO v VALUES (1), (2);")
    var words: [UInt64] = [0]
    try connection.collectIntegers("SELECT sqlitekit_bitset(x) FROM v", [], base: 0, into: &words)
    #expect(words == [0b110])
    #expect(try connection.scalar("SELECT sqlitekit_bitset(x) FROM v")?.integerValue == 2)
    #expect(words == [0b110])
    try connection.execute("CREATE VIEW counted AS SELECT sqlitekit_bitset(x) AS n FROM v")
    #expect(throws: SQLiteError.self) { try connection.scalar("SELECT n FROM counted") }
  }
}
