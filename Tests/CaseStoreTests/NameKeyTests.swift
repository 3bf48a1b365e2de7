import Foundation
import Testing

@testable import CaseStore

/// `NameKey`: the ASCII fast path gives exactly the keys Foundation's folding gives.
@Suite struct NameKeyTests {
  /// The keys as Foundation computes them (the slow path, for every text).
  static func foundationKeys(_ text: String) -> (caseKey: String, sortKey: String) {
    (
      text.folding(options: [.caseInsensitive], locale: nil)
        .precomposedStringWithCanonicalMapping,
      text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        .precomposedStringWithCanonicalMapping
    )
  }

  @Test func everyASCIICharacterFoldsAsFoundationFoldsIt() {
    for value in UInt8(0)..<0x80 {
      let text = "Ab" + String(UnicodeScalar(value)) + "Z"
      let expected = Self.foundationKeys(text)
      #expect(NameKey.asciiKey(text) == expected.caseKey, "byte \(value)")
      #expect(NameKey.caseKey(text) == expected.caseKey, "byte \(value)")
      #expect(NameKey.sortKey(text) == expected.sortKey, "byte \(value)")
    }
  }

  @Test(arguments: ["", "Crow", "crow", "SPECIES 123456", "Big Berry Manzanita", "a\u{0}B"])
  func asciiTextTakesTheFastPath(text: String) {
    #expect(NameKey.asciiKey(text) == Self.foundationKeys(text).caseKey)
  }

  @Test(arguments: ["R\u{E9}nard", "RE\u{301}NARD", "Stra\u{DF}e", "\u{1F426}\u{200D}\u{2B1B}"])
  func otherTextTakesFoundationsPath(text: String) {
    #expect(NameKey.asciiKey(text) == nil)
    #expect(NameKey.caseKey(text) == Self.foundationKeys(text).caseKey)
    #expect(NameKey.sortKey(text) == Self.foundationKeys(text).sortKey)
  }

  /// The text a key is folded from is stored exactly where the schema tells text beyond ASCII
  /// apart (`length(CAST(text AS BLOB)) > length(text)`: a NUL counts, as length() stops there).
  @Test(arguments: [
    ("Crow", false), ("SPECIES 123456", false), ("a\u{7F}b", false), ("a\u{0}B", true),
    ("R\u{E9}nard", true), ("\u{391}\u{39B}\u{395}\u{39E}", true),
  ])
  func foldedFromIsStoredForTextBeyondASCII(text: String, stored: Bool) throws {
    #expect(NameKey.foldedFrom(text) == (stored ? text : nil))
    let database = try CaseDatabase()
    let beyond = try database.connection.scalar(
      "SELECT length(CAST(?1 AS BLOB)) > length(?1)", [text])
    #expect(beyond?.integerValue == (stored ? 1 : 0))
  }
}
