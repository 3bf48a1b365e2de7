/// A suspect's paw size, and an incident's paw clue (README "The documented schema").
///
/// Stored as the raw value in `animals.paw_size` (a `CHECK` allows only these three).
public enum PawSize: String, CaseIterable, Sendable, Codable {
  /// `small`.
  case small
  /// `medium`.
  case medium
  /// `large`.
  case large

  /// Parses `small`, `medium` or `large` in any letter case, ignoring surrounding spaces.
  ///
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)`` for anything else.
  public init(parsing text: String) throws {
    let trimmed = text.trimmingSpaces().lowercased()
    guard let size = PawSize(rawValue: trimmed) else {
      throw CaseError.invalidValue(
        field: "paw size", value: text, expected: "small, medium or large")
    }
    self = size
  }
}

extension String {
  /// The string without leading and trailing spaces, tabs and newlines.
  func trimmingSpaces() -> String {
    // Fast path, no grapheme breaking: a first scalar that is not whitespace starts a first
    // character that is not, and a last scalar that is ASCII and not whitespace ends a last
    // character that starts with it (or with a prepended mark, never whitespace).
    if let first = unicodeScalars.first, let last = unicodeScalars.last, last.isASCII,
      !first.properties.isWhitespace, !last.properties.isWhitespace
    {
      return self
    }
    let isSpace: (Character) -> Bool = { $0.isWhitespace }
    guard let first = firstIndex(where: { !isSpace($0) }),
      let last = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(self[first...last])
  }
}
