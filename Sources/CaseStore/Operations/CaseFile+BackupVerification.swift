import SQLiteKit

extension CaseFile {
  /// How ``CaseFile/backup(at:to:busyTimeout:verify:progress:)`` checks its copy (`quick`,
  /// `full`, `none`); named here so that callers of the case store need not import SQLiteKit.
  public typealias BackupVerification = SQLiteKit.BackupVerification
}
