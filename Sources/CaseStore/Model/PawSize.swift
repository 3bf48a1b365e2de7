/// A suspect's paw size, and an incident's paw clue (docs/schema.md "Tables").
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
