import CaseStore
import CommandLineKit

/// `--on-conflict` accepts `fail`, `skip` and `update`.
extension ConflictPolicy: ExpressibleByArgument {}
