import CaseStore

/// `sql --param NAME=VALUE`.
extension AdHocQuery.Parameter: ExpressibleByArgument {
  init?(argument: String) { self.init(assignment: argument) }
  static var invalidValueReason: String? { "expected NAME=VALUE" }
}
