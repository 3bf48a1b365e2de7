import CommandLineKit

/// A whole number, 0 or more, such as `list --offset`'s.
struct Count: ExpressibleByArgument, Equatable {
  /// The number.
  let value: Int

  init?(argument: String) {
    guard let value = Int(argument), value >= 0 else { return nil }
    self.value = value
  }

  static let invalidValueReason: String? = "expected a whole number, 0 or more"
}
