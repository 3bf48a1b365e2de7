/// How a transaction takes its locks.
///
/// SQLite: <https://sqlite.org/lang_transaction.html>
public enum TransactionKind: String, Sendable {
  /// Takes locks as statements need them; a later write may fail with ``ResultCode/busy``.
  case deferred = "DEFERRED"
  /// Takes the write lock at `BEGIN`, waiting up to the busy timeout: the right kind for every
  /// write (README "Guarantees"), so two writers queue instead of deadlocking.
  case immediate = "IMMEDIATE"
  /// Like immediate; in WAL mode the same.
  case exclusive = "EXCLUSIVE"
}

extension Connection {
  /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
  ///
  /// Nested calls (a transaction already open on this connection) become savepoints, so a
  /// repository operation can be called alone or inside a bigger change.
  ///
  /// - Parameters:
  ///   - kind: `BEGIN` kind; writes use ``TransactionKind/immediate`` (the default).
  ///   - body: The work; its result is returned after the commit.
  /// - Throws: What `body` throws (after rolling back), or `SQLiteError` from `BEGIN` (e.g.
  ///   ``ResultCode/busy`` past the timeout) or `COMMIT`.
  /// - SQLite: <https://sqlite.org/lang_transaction.html>
  public func inTransaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T)
    throws -> T
  {
    guard isAutocommit else { return try inSavepoint(body) }
    try execute("BEGIN \(kind.rawValue) TRANSACTION")
    let result: T
    do {
      result = try body()
    } catch {
      rollbackQuietly()
      throw error
    }
    do {
      try execute("COMMIT TRANSACTION")
    } catch {
      rollbackQuietly()
      throw error
    }
    return result
  }

  /// Runs `body` inside a savepoint: released when it returns, rolled back to (and released)
  /// when it throws, leaving any enclosing transaction open.
  ///
  /// - Throws: What `body` throws, or `SQLiteError` from `SAVEPOINT` or `RELEASE`.
  /// - SQLite: <https://sqlite.org/lang_savepoint.html>
  public func inSavepoint<T>(_ body: () throws -> T) throws -> T {
    savepointDepth += 1
    defer { savepointDepth -= 1 }
    let name = "inspector_\(savepointDepth)"
    try execute("SAVEPOINT \(name)")
    do {
      let result = try body()
      try execute("RELEASE SAVEPOINT \(name)")
      return result
    } catch {
      if !isAutocommit {
        try? execute("ROLLBACK TRANSACTION TO SAVEPOINT \(name)")
        try? execute("RELEASE SAVEPOINT \(name)")
      }
      throw error
    }
  }

  private func rollbackQuietly() {
    // SQLite may already have rolled back by itself (e.g. on SQLITE_FULL).
    if !isAutocommit { try? execute("ROLLBACK TRANSACTION") }
  }
}
