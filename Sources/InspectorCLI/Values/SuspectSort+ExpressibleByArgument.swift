import CaseStore
import CommandLineKit

/// `list --sort` accepts `level`, `name`, `species` and `id`.
extension SuspectSort: ExpressibleByArgument {}
