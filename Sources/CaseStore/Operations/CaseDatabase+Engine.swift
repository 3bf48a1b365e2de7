import SQLiteKit

extension CaseDatabase {
  /// The version of the SQLite library in use, such as "3.45.1" (shown by `inspector --version`).
  public static var sqliteVersion: String { Connection.sqliteVersion }

  /// The schema version of this database: the highest migration applied.
  ///
  /// - Throws: `SQLiteError` when the bookkeeping table cannot be read.
  public func schemaVersion() throws -> Int {
    try Self.migrator.currentVersion(of: connection)
  }
}
