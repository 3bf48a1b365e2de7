import SQLiteKit

extension CaseDatabase {
  /// Runs `body` in one read transaction, so that every query in it reads the same snapshot
  /// of the file while other processes write (`export` reads fruits, suspects and incidents
  /// this way).
  ///
  /// - Throws: What `body` throws, or `SQLiteError` when the transaction cannot begin.
  /// - SQLite: <https://sqlite.org/isolation.html>
  public func readingOneSnapshot<T>(_ body: () throws -> T) throws -> T {
    guard connection.isAutocommit else { return try body() }
    return try connection.inTransaction(.deferred, body)
  }
}
