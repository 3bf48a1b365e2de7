import CommandLineKit

/// A whole number, 1 or more, such as `rank --limit`'s.
struct PositiveCount: ExpressibleByArgument, Equatable {
  /// The number.
  let value: Int

  init?(argument: String) {
    guard let value = Int(argument), value >= 1 else { return nil }
    self.value = value
  }

  static let invalidValueReason: String? = "expected a whole number, 1 or more"

  static func invalidValueReason(for argument: String) -> String? {
    WholeNumber.tooLargeReason(argument) ?? invalidValueReason
  }
}
