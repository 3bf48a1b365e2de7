import Testing

@testable import CaseStore

@Suite("SuspicionLevel and SuspicionLabel")
struct SuspicionLevelTests {
  @Test(
    "parses levels typed by a person, dot as the only separator",
    arguments: [
      ("0.5", 0.5), (".5", 0.5), ("1", 1.0), ("0", 0.0), ("1.0", 1.0), ("0.95", 0.95),
      ("0.1", 0.1), ("0.2", 0.2), ("00.25", 0.25), ("+.5", 0.5), ("1.", 1.0),
    ])
  func parses(text: String, value: Double) throws {
    #expect(try SuspicionLevel(parsing: text).value == value)
  }

  @Test(
    "rejects non-numbers, NaN, infinities and values outside [0, 1]",
    arguments: [
      "1.5", "-0.1", "NaN", "nan", "inf", "-inf", "infinity", "1e309", "0,5", "", " 0.5",
      "0.5 ", "half", "1.0000001", "0x1p-1", ".", "e", "\u{0661}", "0.5\u{0}", "1e-1", "5e-1",
      "1e-400",
    ])
  func rejects(text: String) {
    expectInvalidValue(
      field: "suspicion level", value: text, expected: "a number from 0 to 1, such as 0.5"
    ) {
      try SuspicionLevel(parsing: text)
    }
  }

  @Test func negativeZeroBecomesPositiveZero() throws {
    let parsed = try SuspicionLevel(parsing: "-0")
    #expect(parsed.value == 0)
    #expect(parsed.value.sign == .plus)
    let wrapped = try #require(SuspicionLevel(-0.0))
    #expect(wrapped.value.sign == .plus)
    #expect(wrapped == .zero)
  }

  @Test(
    "init? refuses what is not a level",
    arguments: [-0.1, 1.0001, Double.nan, .infinity, -.infinity, -Double.ulpOfOne])
  func refuses(value: Double) {
    #expect(SuspicionLevel(value) == nil)
  }

  @Test func describesWithShortestRoundTrip() throws {
    #expect(try SuspicionLevel(parsing: ".5").description == "0.5")
    #expect(try SuspicionLevel(parsing: "1").description == "1.0")
    #expect(try SuspicionLevel(parsing: "0.1").description == "0.1")
  }

  @Test(
    "labels and colours at the band boundaries",
    arguments: [
      (0, "Unlikely", "green"),
      (0.1999, "Unlikely", "green"),
      (0.2, "Fishy", "mint"),
      (0.4999, "Fishy", "mint"),
      (0.5, "Very suspicious", "orange"),
      (0.8999, "Very suspicious", "orange"),
      (0.9, "Extremely suspicious!", "red"),
      (1, "Extremely suspicious!", "red"),
      (-0.1, "Suspiciously Unsuspicious", "blue"),
      (1.0001, "Suspiciously Unsuspicious", "blue"),
      (.nan, "Suspiciously Unsuspicious", "blue"),
      (.infinity, "Suspiciously Unsuspicious", "blue"),
      (-.infinity, "Suspiciously Unsuspicious", "blue"),
    ] as [(Double, String, String)])
  func labels(level: Double, label: String, color: String) {
    let band = SuspicionLabel(level: level)
    #expect(band.rawValue == label)
    #expect(band.color.rawValue == color)
  }

  @Test func levelKnowsItsLabel() throws {
    #expect(try SuspicionLevel(parsing: "0.95").label == .extremelySuspicious)
    #expect(SuspicionLevel.zero.label == .unlikely)
  }
}
