import CaseStore

/// `backup --verify` accepts `quick`, `full` and `none`.
extension CaseFile.BackupVerification: ExpressibleByArgument {}
