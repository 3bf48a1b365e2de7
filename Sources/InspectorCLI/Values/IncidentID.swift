import CommandLineKit

/// An incident's id as typed: a whole number, 1 or more (`incident show 4`, `rank --incident 4`).
/// Anything else is a usage error (exit 64); a well-formed id that names no incident is the
/// case store's to refuse (exit 65).
struct IncidentID: ExpressibleByArgument, Equatable {
  /// The id.
  let value: Int64

  init?(argument: String) {
    guard let value = Int64(argument), value >= 1 else { return nil }
    self.value = value
  }

  static let invalidValueReason: String? =
    "expected an incident id, a whole number 1 or more"

  static func invalidValueReason(for argument: String) -> String? {
    WholeNumber.tooLargeReason(argument) ?? invalidValueReason
  }
}
