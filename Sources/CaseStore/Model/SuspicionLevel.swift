/// How suspicious a suspect is: a real number in [0, 1], where 1 means guilty.
///
/// docs/schema.md "The interview"; stored in `suspicion_levels.level` (a `CHECK` keeps it in
/// range). A suspect without a row has level 0.
public struct SuspicionLevel: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The level, in [0, 1]; never NaN and never -0.
  public let value: Double

  /// Wraps a level, or returns `nil` for NaN, infinities and values outside [0, 1].
  /// `-0.0` becomes `0.0`.
  public init?(_ value: Double) {
    guard value.isFinite, value >= 0, value <= 1 else { return nil }
    self.value = value == 0 ? 0 : value
  }

  /// Parses a level typed by a person in plain decimal notation, the grammar every decimal
  /// option shares: `0.5`, `.5`, `1`, `0`; a dot is the only decimal separator whatever the
  /// locale, and there is no exponent.
  ///
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)`` for text that is not plain
  ///   decimal (`0,5`, `half`, `5e-1`, `1e-400`, `nan`, `inf`) or a number outside [0, 1].
  public init(parsing text: String) throws {
    guard let number = DecimalText.number(text),
      let level = SuspicionLevel(number)
    else {
      throw CaseError.invalidValue(
        field: "suspicion level", value: text, expected: "a number from 0 to 1, such as 0.5")
    }
    self = level
  }

  /// The default level, 0.
  public static let zero = SuspicionLevel(0)!

  /// The band this level falls in.
  public var label: SuspicionLabel { SuspicionLabel(level: value) }

  /// The shortest text that reads back to the same value (`0.5`, `1.0`).
  public var description: String { "\(value)" }

  /// Less suspicious first.
  public static func < (lhs: SuspicionLevel, rhs: SuspicionLevel) -> Bool {
    lhs.value < rhs.value
  }
}

/// The label shown for a suspicion level, with its colour (docs/command-line.md "suspect" and
/// "Colour").
///
/// Bands: [0, 0.2) `Unlikely` (green); [0.2, 0.5) `Fishy` (mint); [0.5, 0.9) `Very suspicious`
/// (orange); [0.9, 1] `Extremely suspicious!` (red); any other value, such as a level written
/// out of range by other means, `Suspiciously Unsuspicious` (blue).
public enum SuspicionLabel: String, CaseIterable, Sendable {
  /// [0, 0.2).
  case unlikely = "Unlikely"
  /// [0.2, 0.5).
  case fishy = "Fishy"
  /// [0.5, 0.9).
  case verySuspicious = "Very suspicious"
  /// [0.9, 1].
  case extremelySuspicious = "Extremely suspicious!"
  /// Anything else (negative, above 1, NaN).
  case suspiciouslyUnsuspicious = "Suspiciously Unsuspicious"

  /// The colour names of the label bands (docs/command-line.md "Colour").
  public enum Color: String, Sendable {
    /// For ``SuspicionLabel/unlikely``.
    case green
    /// For ``SuspicionLabel/fishy``.
    case mint
    /// For ``SuspicionLabel/verySuspicious``.
    case orange
    /// For ``SuspicionLabel/extremelySuspicious``.
    case red
    /// For ``SuspicionLabel/suspiciouslyUnsuspicious``.
    case blue
  }

  /// The band of `level`.
  public init(level: Double) {
    switch level {
    case 0..<0.2: self = .unlikely
    case 0.2..<0.5: self = .fishy
    case 0.5..<0.9: self = .verySuspicious
    case 0.9...1: self = .extremelySuspicious
    default: self = .suspiciouslyUnsuspicious
    }
  }

  /// The band's colour.
  public var color: Color {
    switch self {
    case .unlikely: .green
    case .fishy: .mint
    case .verySuspicious: .orange
    case .extremelySuspicious: .red
    case .suspiciouslyUnsuspicious: .blue
    }
  }
}
