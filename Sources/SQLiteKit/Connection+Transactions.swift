/// How a transaction takes its locks.
///
/// SQLite: <https://sqlite.org/lang_transaction.html>
public enum TransactionKind: String, Sendable {
  /// Takes locks as statements need them; a later write may fail with ``ResultCode/busy``.
  case deferred = "DEFERRED"
  /// Takes the write lock at `BEGIN`, waiting up to the busy timeout: the right kind for every
  /// write (docs/operations.md "Several writers, and locks"), so two writers queue instead of
  /// deadlocking.
  case immediate = "IMMEDIATE"
  /// Like immediate; in WAL mode the same.
  case exclusive = "EXCLUSIVE"
}

extension Connection {
  /// Begins a transaction of `kind` that the caller ends with `COMMIT` or `ROLLBACK` (what
  /// ``inTransaction(_:_:)`` does around its body; a read held open across calls does it by
  /// hand). Not re-entrant, as ``inTransaction(_:_:)`` is not.
  ///
  /// - Throws: `SQLiteError` with ``ResultCode/misuse`` when a transaction is already open, or
  ///   from `BEGIN` (e.g. ``ResultCode/busy`` past the timeout).
  /// - SQLite: <https://sqlite.org/lang_transaction.html>
  public func begin(_ kind: TransactionKind) throws {
    guard isAutocommit else {
      throw SQLiteError(
        extendedCode: .misuse,
        message: "a transaction is already open; nest with inSavepoint(named:)")
    }
    try execute("BEGIN \(kind.rawValue) TRANSACTION")
  }

  /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
  ///
  /// Not re-entrant: called while a transaction is open on this connection (from an enclosing
  /// call, an ``inSavepoint(named:_:)`` or a `BEGIN` run by hand) it throws before running
  /// `body`, so a caller never mistakes a nested change for a committed one. Nest with
  /// ``inSavepoint(named:_:)``.
  ///
  /// - Parameters:
  ///   - kind: `BEGIN` kind; writes use ``TransactionKind/immediate`` (the default).
  ///   - body: The work; its result is returned after the commit.
  /// - Throws: `SQLiteError` with ``ResultCode/misuse`` when a transaction is already open
  ///   (nothing runs); what `body` throws (after rolling back); or `SQLiteError` from `BEGIN`
  ///   (e.g. ``ResultCode/busy`` past the timeout) or `COMMIT`.
  /// - SQLite: <https://sqlite.org/lang_transaction.html>
  public func inTransaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T)
    throws -> T
  {
    try begin(kind)
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

  /// Runs `body` inside the savepoint `name`: released when it returns, rolled back to (and
  /// released) when it throws, leaving any enclosing transaction or savepoint open. Outside a
  /// transaction the savepoint is one (deferred) of its own.
  ///
  /// Savepoints nest; an inner one may reuse an outer one's name, as SQLite always acts on the
  /// innermost savepoint of a name.
  ///
  /// - Parameters:
  ///   - name: An SQL identifier: an ASCII letter or `_`, then ASCII letters, digits or `_`
  ///     (at most 64 characters). It is quoted in the SQL.
  ///   - body: The work; its result is returned after the release.
  /// - Throws: `SQLiteError` with ``ResultCode/misuse`` for a name that is not such an
  ///   identifier (nothing runs); what `body` throws (after rolling back to the savepoint); or
  ///   `SQLiteError` from `SAVEPOINT` or `RELEASE`.
  /// - SQLite: <https://sqlite.org/lang_savepoint.html>
  public func inSavepoint<T>(named name: String, _ body: () throws -> T) throws -> T {
    guard Self.isSavepointName(name) else {
      throw SQLiteError(
        extendedCode: .misuse,
        message: "savepoint name \"\(name)\" is not an identifier ([A-Za-z_][A-Za-z0-9_]*)")
    }
    let quoted = "\"\(name)\""
    try execute("SAVEPOINT \(quoted)")
    do {
      let result = try body()
      try execute("RELEASE SAVEPOINT \(quoted)")
      return result
    } catch {
      if !isAutocommit {
        try? execute("ROLLBACK TRANSACTION TO SAVEPOINT \(quoted)")
        try? execute("RELEASE SAVEPOINT \(quoted)")
      }
      throw error
    }
  }

  /// Whether `name` is an identifier ``inSavepoint(named:_:)`` accepts.
  static func isSavepointName(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    guard let first = bytes.first, bytes.count <= 64 else { return false }
    func isLetter(_ byte: UInt8) -> Bool {
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || byte == UInt8(ascii: "_")
    }
    return isLetter(first)
      && bytes.allSatisfy { isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
  }

  private func rollbackQuietly() {
    // SQLite may already have rolled back by itself (e.g. on SQLITE_FULL).
    if !isAutocommit { try? execute("ROLLBACK TRANSACTION") }
  }
}
