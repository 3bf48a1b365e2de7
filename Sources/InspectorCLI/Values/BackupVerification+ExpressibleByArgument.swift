import CaseStore
import CommandLineKit

/// `backup --verify` accepts `quick`, `full` and `none`.
extension CaseFile.BackupVerification: ExpressibleByArgument {}
