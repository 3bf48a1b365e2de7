import CommandLineKit

/// A migration version, a whole number of 1 or more, such as `migrate up --to`'s.
struct MigrationVersion: ExpressibleByArgument, Equatable {
  /// The version.
  let value: Int

  init?(argument: String) {
    guard let value = Int(argument), value > 0 else { return nil }
    self.value = value
  }

  static let invalidValueReason: String? = "expected a migration version"

  static func invalidValueReason(for argument: String) -> String? {
    WholeNumber.tooLargeReason(argument) ?? invalidValueReason
  }
}
