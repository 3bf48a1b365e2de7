import SQLiteKit

extension CaseFile {
  /// One migration's version, name, state and time applied, as
  /// ``CaseFile/migrationStatus(at:busyTimeout:)`` and ``CaseFile/CheckReport/migrations`` list
  /// them; named here so that callers of the case store need not import SQLiteKit.
  public typealias MigrationStatus = SQLiteKit.MigrationStatus
}
