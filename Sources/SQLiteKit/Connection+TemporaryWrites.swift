internal import CSQLite

extension Connection {
  /// Whether the first statement of `sql` writes only the connection's temporary database
  /// (`CREATE TEMP TABLE`, `INSERT INTO` a temporary table, `DROP VIEW` of a temporary view...),
  /// as SQLite's authorizer reports it while the statement is prepared (never run).
  ///
  /// A read-only connection may run such statements, as `sqlite3 -readonly` does: they touch
  /// no file. Any action that would change the main or an attached database, attach a file, or
  /// run a `PRAGMA` makes the answer `false`, and so does a statement that reports no write at
  /// all (such as `VACUUM INTO`, which writes another file). This connection's authorizer is
  /// replaced while the statement is prepared and removed afterwards.
  ///
  /// - Parameter sql: SQL starting with the statement to inspect; text after it is ignored.
  /// - Returns: `true` when every write the statement makes is to `temp`.
  /// - Throws: `SQLiteError` when the statement cannot be prepared.
  /// - SQLite: <https://sqlite.org/c3ref/set_authorizer.html>,
  ///   <https://sqlite.org/c3ref/c_alter_table.html>
  public func writesOnlyTemporaryObjects(_ sql: String) throws -> Bool {
    let writes = TemporaryWrites()
    try withAuthorizer(
      { context, action, _, _, database, _ in
        guard let context else { return SQLITE_OK }
        let seen = Unmanaged<TemporaryWrites>.fromOpaque(context).takeUnretainedValue()
        let schema = database.map { String(cString: $0) }
        switch action {
        case SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TABLE, SQLITE_CREATE_TEMP_TRIGGER,
          SQLITE_CREATE_TEMP_VIEW, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TABLE,
          SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TEMP_VIEW:
          seen.temporary = true
        case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE:
          if schema == "temp" { seen.temporary = true } else { seen.other = true }
        case SQLITE_READ, SQLITE_SELECT, SQLITE_FUNCTION, SQLITE_RECURSIVE, SQLITE_TRANSACTION,
          SQLITE_SAVEPOINT:
          break
        default:
          seen.other = true
        }
        return SQLITE_OK
      }, context: writes
    ) {
      try compileFirstStatement(of: sql)
    }
    return writes.temporary && !writes.other
  }
}

/// What the authorizer of ``Connection/writesOnlyTemporaryObjects(_:)`` saw.
private final class TemporaryWrites {
  var temporary = false
  var other = false
}
