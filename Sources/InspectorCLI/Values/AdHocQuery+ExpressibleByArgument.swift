import CaseStore
import CommandLineKit

/// `sql --param NAME=VALUE`.
extension AdHocQuery.Parameter: ExpressibleByArgument {
  public init?(argument: String) { self.init(assignment: argument) }
  public static var invalidValueReason: String? { "expected NAME=VALUE" }
}
