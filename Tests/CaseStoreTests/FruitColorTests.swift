import Testing

@testable import CaseStore

@Suite("Fruit colour")
struct FruitColorTests {
  @Test(
    "accepts colour names (lowercased) and #RRGGBB (kept as typed)",
    arguments: [
      ("red", "red"), ("Red", "red"), ("YELLOW", "yellow"), ("light green", "light green"),
      ("Blue-Green", "blue-green"), ("#A1b2C3", "#A1b2C3"), ("#000000", "#000000"),
      ("#ffffff", "#ffffff"), (" pink ", "pink"), (String(repeating: "a", count: 40), nil),
    ] as [(String, String?)])
  func accepts(text: String, normalized: String?) throws {
    #expect(try Fruit.normalizedColor(text) == (normalized ?? text))
  }

  @Test(
    "rejects anything else",
    arguments: [
      "bluish!", "#12345", "", "   ", "#1234567", "#GGGGGG", "123456", "#12 456", "-red",
      "r\u{E9}d", "red1", String(repeating: "a", count: 41), "#\u{FF11}23456",
    ])
  func rejects(text: String) {
    expectInvalidValue(
      field: "colour", value: text, expected: "a colour name such as red, or #RRGGBB"
    ) {
      try Fruit.normalizedColor(text)
    }
  }
}
