import CaseStore

/// `changes apply --on-conflict` accepts `fail`, `skip` and `replace`.
extension ChangesetConflictPolicy: ExpressibleByArgument {}
