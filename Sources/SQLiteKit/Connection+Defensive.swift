internal import CSQLite

extension Connection {
  /// Configures a newly opened connection as SQLite's "Defense Against the Dark Arts" page
  /// advises, so that no SQL run on it, from this tool or typed by a user, can corrupt the file
  /// or run code the schema smuggles in:
  ///
  /// - `SQLITE_DBCONFIG_DEFENSIVE` on: `PRAGMA writable_schema = ON` no longer lets a statement
  ///   write `sqlite_schema` (the write fails with ``ResultCode/error``), and
  ///   `PRAGMA journal_mode = OFF` and `PRAGMA schema_version = N` change nothing.
  /// - `SQLITE_DBCONFIG_TRUSTED_SCHEMA` off (`PRAGMA trusted_schema = OFF`): triggers, views and
  ///   `CHECK` constraints may only call functions SQLite marks innocuous, as the built-in ones
  ///   the schema uses (`lower`, `replace`, `trim`, `date`...) are.
  /// - `SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION` off: neither the C API nor the SQL function
  ///   `load_extension()` can load a shared library.
  ///
  /// Each option is read back after it is set, so a SQLite that ignores one fails the open
  /// instead of running unprotected.
  ///
  /// - Throws: `SQLiteError` from `sqlite3_db_config` (``ResultCode/error`` for an option this
  ///   SQLite does not know, as before 3.31), or ``ResultCode/error`` when an option did not
  ///   take effect.
  /// - SQLite: <https://sqlite.org/security.html>,
  ///   <https://sqlite.org/c3ref/c_dbconfig_defensive.html>
  func configureDefensively() throws {
    let settings: [(option: Int32, name: String, on: Bool)] = [
      (SQLITE_DBCONFIG_DEFENSIVE, "SQLITE_DBCONFIG_DEFENSIVE", true),
      (SQLITE_DBCONFIG_TRUSTED_SCHEMA, "SQLITE_DBCONFIG_TRUSTED_SCHEMA", false),
      (SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, "SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION", false),
    ]
    for setting in settings {
      let wanted: Int32 = setting.on ? 1 : 0
      var now: Int32 = -1
      try check(csqlite_db_config_flag(handle, setting.option, wanted, &now))
      guard now == wanted else {
        throw SQLiteError(
          extendedCode: .error,
          message: "SQLite \(Connection.sqliteVersion) did not apply \(setting.name) = \(wanted)")
      }
    }
  }
}
