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
  /// A cached statement stays in the cache while it is checked out (a set of handles marks it
  /// taken), so a use costs one lookup by SQL text; taking it out and putting it back cost
  /// three, and the dictionary rehashed the SQL of its neighbours on each removal (a tenth of
  /// an undo of 100,000 suspects, which looks up several statements a row).
  ///
  /// - Parameter sql: Exactly one statement (see ``prepare(_:)``).
  /// - Throws: `SQLiteError` for SQL that does not prepare.
  /// - SQLite: <https://sqlite.org/c3ref/prepare.html>,
  ///   <https://sqlite.org/c3ref/c_prepare_normalize.html>
  public func cachedStatement(_ sql: String) throws -> Statement {
    if let handle = cachedHandles[sql], checkedOutHandles.insert(handle).inserted {
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

  /// Takes back a statement released by its holder: reset, bindings cleared, and ready for the
  /// next ``cachedStatement(_:)`` of `sql`; finalized instead when a step `failed` (the cache
  /// then forgets it) or when another statement for the same SQL is cached.
  func checkIn(_ handle: OpaquePointer, for sql: String, failed: Bool) {
    if checkedOutHandles.remove(handle) != nil {
      if failed {
        cachedHandles[sql] = nil
        sqlite3_finalize(handle)
      } else {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
      }
    } else if !failed && cachedHandles[sql] == nil {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
      cachedHandles[sql] = handle
    } else {
      sqlite3_finalize(handle)
    }
  }
}
