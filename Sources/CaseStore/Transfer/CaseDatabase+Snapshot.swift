import SQLiteKit

extension CaseDatabase {
  /// Runs `body` in one read transaction, so that every query in it reads the same snapshot
  /// of the file while other processes write; inside a unit of work (``read(_:)``, where the
  /// ranking's walk runs) it is that unit's snapshot.
  ///
  /// - Throws: What `body` throws, or `SQLiteError` when the transaction cannot begin.
  /// - SQLite: <https://sqlite.org/isolation.html>
  func readingOneSnapshot<T>(_ body: () throws -> T) throws -> T {
    guard connection.isAutocommit else { return try body() }
    return try connection.inTransaction(.deferred, body)
  }
}
