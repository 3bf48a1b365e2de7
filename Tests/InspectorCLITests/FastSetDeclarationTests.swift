import Foundation
import Testing

/// The fast set (README "Set-up") leaves out exactly what is tagged `.slow`: `swift test` cannot
/// filter by tag, so the tag and the trait that skips (`.skippedInFastSet`) are written side by
/// side, and this test reads every test file to check that one never comes without the other.
@Suite struct FastSetDeclarationTests {
  /// `Tests/`: two levels up from this file.
  static let testsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The argument lists of every `@Suite(...)` and `@Test(...)` attribute in `source`, up to the
  /// parenthesis that closes each.
  static func attributes(in source: String) -> [String] {
    var found: [String] = []
    var rest = source[...]
    while let start = rest.firstRange(of: /@(Suite|Test)\(/) {
      var depth = 0
      var end = start.upperBound
      scan: for index in source[start.upperBound...].indices {
        switch source[index] {
        case "(": depth += 1
        case ")" where depth == 0:
          end = index
          break scan
        case ")": depth -= 1
        default: break
        }
      }
      found.append(String(source[start.upperBound..<end]))
      rest = source[end...]
    }
    return found
  }

  @Test func everySlowTagComesWithTheFastSetSkipAndBackAgain() throws {
    let files = try #require(
      FileManager.default.enumerator(atPath: Self.testsDirectory.path)?.allObjects as? [String])
    var slow = 0
    // This file's own example attributes are not declarations.
    let this = URL(fileURLWithPath: #filePath).lastPathComponent
    for file in files where file.hasSuffix(".swift") && !file.hasSuffix("/" + this) {
      let source = try String(
        contentsOf: Self.testsDirectory.appendingPathComponent(file), encoding: .utf8)
      for attribute in Self.attributes(in: source) {
        let tagged = attribute.contains(/\.tags\([^)]*\.slow\b/)
        let skipped = attribute.contains(".skippedInFastSet")
        #expect(tagged == skipped, "\(file): @Suite/@Test(\(attribute))")
        if tagged { slow += 1 }
      }
    }
    // ModelBasedTests, HostileInputTests, CrashSafetyTests, ConcurrencyTests, ScriptTests,
    // HardRankingCaseTests, CompletionScriptTests, ClosedPipeTests, the seven file-operation
    // suites, BenchToolTests, HistoryUpgradeTests, HTTPServerTests, ServeProcessTests and one
    // test: the list README "Set-up" gives.
    #expect(slow == 20)
  }

  @Test func theAttributeReaderFindsNestedParentheses() {
    let source = """
      @Suite(.tags(.slow), .skippedInFastSet) struct A {
        @Test(.enabled(if: f(1)), arguments: [(1, 2)]) func b() {}
        @Test func c() {}
      }
      """
    #expect(
      Self.attributes(in: source) == [
        ".tags(.slow), .skippedInFastSet", ".enabled(if: f(1)), arguments: [(1, 2)]",
      ])
  }
}
