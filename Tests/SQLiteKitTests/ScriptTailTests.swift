import Testing

@testable import SQLiteKit

/// `Statement.isLastInScript`: only white space and comments may follow the last statement.
@Suite struct ScriptTailTests {
  /// `isLastInScript` of each statement of `script`, in order.
  func lastFlags(_ script: String) throws -> [Bool] {
    let connection = try Connection(path: ":memory:")
    var flags: [Bool] = []
    try connection.forEachStatement(in: script) { statement in
      flags.append(statement.isLastInScript)
      while try statement.step() {}
    }
    return flags
  }

  @Test func onlyTheStatementWithNothingButCommentsAfterItIsLast() throws {
    #expect(try lastFlags("SELECT 1") == [true])
    #expect(try lastFlags("SELECT 1; SELECT 2;") == [false, true])
    #expect(try lastFlags("SELECT 1; -- done\n /* really */ \t\r\n") == [true])
    #expect(try lastFlags("SELECT 1; /* unterminated") == [true])
    #expect(try lastFlags("SELECT 1; ; SELECT 2 -- two") == [false, true])
    #expect(try lastFlags("SELECT 1; /* a */ SELECT '-- not a comment'") == [false, true])
    #expect(try lastFlags("SELECT 1 -- x\n; SELECT 2 - 1") == [false, true])
  }
}
