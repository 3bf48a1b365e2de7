import SQLiteKit

extension AdHocQuery {
  /// Runs the script on an open case file in one transaction (`inspector sql --write`).
  ///
  /// - Parameter database: A case database opened for writing.
  /// - Returns: The result.
  /// - Throws: What ``run(on:write:)`` throws for a write run; nothing is changed then.
  public func run(writingTo database: CaseDatabase) throws -> Result {
    try run(on: database.connection, write: true)
  }

  /// Opens the file at `path` as ``openReadOnly(path:busyTimeout:)`` does and runs the script
  /// on it without changing anything.
  ///
  /// - Parameters:
  ///   - path: The case file.
  ///   - busyTimeout: Milliseconds to wait for another connection's lock.
  /// - Returns: The result.
  /// - Throws: What ``openReadOnly(path:busyTimeout:)`` and ``run(on:write:)`` throw for a
  ///   read-only run (``ReadOnlyViolation`` for a statement that would write).
  public func run(readingAt path: String, busyTimeout: Int) throws -> Result {
    let connection = try Self.openReadOnly(path: path, busyTimeout: busyTimeout)
    return try run(on: connection, write: false)
  }
}

extension AdHocQuery.Result {
  /// ``rows`` as case-store values, row by row.
  public var values: [[AdHocValue]] { rows.map { $0.map(AdHocValue.init) } }
}
