internal import CSQLite

extension Connection {
  /// A prepared statement for `sql` from this connection's cache: prepared once (with
  /// `SQLITE_PREPARE_PERSISTENT`, as SQLite advises for statements that are reused), then
  /// handed out again and again.
  ///
  /// The statement is checked out while the returned value lives: a second request for the
  /// same SQL meanwhile gets a statement of its own, so nested uses never share one cursor.
  /// When the value is released the statement is reset, its bindings are cleared, and it goes
  /// back to the cache; one whose step failed is finalized instead and prepared afresh next
  /// time. Callers never reset by hand.
  ///
  /// - Parameter sql: Exactly one statement (see ``prepare(_:)``).
  /// - Throws: `SQLiteError` for SQL that does not prepare.
  /// - SQLite: <https://sqlite.org/c3ref/prepare.html>,
  ///   <https://sqlite.org/c3ref/c_prepare_normalize.html>
  public func cachedStatement(_ sql: String) throws -> Statement {
    if let handle = cachedHandles.removeValue(forKey: sql) {
      return Statement(handle: handle, connection: self, cacheKey: sql)
    }
    var prepared: Statement?
    do {
      try forEachStatement(
        in: sql, flags: UInt32(SQLITE_PREPARE_PERSISTENT), cacheKey: sql
      ) { statement in
        guard prepared == nil else {
          statement.failed = true
          throw SQLiteError(
            extendedCode: .misuse, message: "more than one statement given to prepare", sql: sql)
        }
        prepared = statement
      }
    } catch {
      // Never cache the first statement of a script under the script's text.
      prepared?.failed = true
      throw error
    }
    guard let prepared else {
      throw SQLiteError(extendedCode: .misuse, message: "no SQL statement to prepare", sql: sql)
    }
    return prepared
  }

  /// Takes back a statement released by its holder: reset, bindings cleared, cached for the
  /// next ``cachedStatement(_:)`` (finalized when another one for the same SQL is cached).
  func checkIn(_ handle: OpaquePointer, for sql: String) {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    if cachedHandles[sql] == nil {
      cachedHandles[sql] = handle
    } else {
      sqlite3_finalize(handle)
    }
  }
}
