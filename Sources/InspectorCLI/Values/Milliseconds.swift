import CommandLineKit

/// A whole number of milliseconds, 0 or more, such as `--busy-timeout`'s.
struct Milliseconds: ExpressibleByArgument, Equatable {
  /// The number of milliseconds.
  let value: Int

  init?(argument: String) {
    guard let value = Int(argument), value >= 0 else { return nil }
    self.value = value
  }

  static let invalidValueReason: String? =
    "expected a whole number of milliseconds, 0 or more"

  static func invalidValueReason(for argument: String) -> String? {
    WholeNumber.tooLargeReason(argument) ?? invalidValueReason
  }
}
