import CaseStore

/// `--on-conflict` accepts `fail`, `skip` and `update`.
extension ConflictPolicy: ExpressibleByArgument {}
