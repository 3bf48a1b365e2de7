import Testing

@testable import CaseStore

@Suite("PawSize")
struct PawSizeTests {
  @Test(
    "parses the three sizes in any letter case, ignoring surrounding spaces",
    arguments: [
      ("small", PawSize.small), ("SMALL", .small), ("Medium", .medium), ("large", .large),
      (" large\n", .large), ("\tMEDIUM ", .medium),
    ])
  func parses(text: String, size: PawSize) throws {
    #expect(try PawSize(parsing: text) == size)
  }

  @Test(
    "rejects anything else",
    arguments: ["huge", "", " ", "s", "smal", "small!", "sm all", "\u{FF53}mall", "larg\u{E9}"])
  func rejects(text: String) {
    expectInvalidValue(field: "paw size", value: text, expected: "small, medium or large") {
      try PawSize(parsing: text)
    }
  }

  @Test func rawValuesAreTheSchemaValues() {
    #expect(PawSize.allCases.map(\.rawValue) == ["small", "medium", "large"])
  }
}
