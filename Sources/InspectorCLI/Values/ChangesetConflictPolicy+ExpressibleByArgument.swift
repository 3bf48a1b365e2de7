import CaseStore
import CommandLineKit

/// `changes apply --on-conflict` accepts `fail`, `skip` and `replace`.
extension ChangesetConflictPolicy: ExpressibleByArgument {}
