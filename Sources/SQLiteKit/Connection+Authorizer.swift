internal import CSQLite

extension Connection {
  /// An authorizer callback as SQLite calls it: the context, the action code
  /// (`SQLITE_PRAGMA`, `SQLITE_ATTACH`...), up to four names, and the answer (`SQLITE_OK`,
  /// `SQLITE_DENY` or `SQLITE_IGNORE`).
  typealias Authorizer =
    @convention(c) (
      UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
      UnsafePointer<CChar>?, UnsafePointer<CChar>?
    ) -> Int32

  /// Runs `body` with `authorizer` installed on this connection, `context` handed to each of
  /// its calls (and kept alive until it is removed); removes it afterwards, whether `body`
  /// returns or throws. A connection has one authorizer, so calls do not nest.
  ///
  /// - Throws: `SQLiteError` from installing or removing the authorizer, or what `body`
  ///   throws (which wins over a failure to remove it).
  /// - SQLite: <https://sqlite.org/c3ref/set_authorizer.html>
  func withAuthorizer<Context: AnyObject, T>(
    _ authorizer: Authorizer, context: Context, _ body: () throws -> T
  ) throws -> T {
    try withExtendedLifetime(context) {
      try check(
        sqlite3_set_authorizer(handle, authorizer, Unmanaged.passUnretained(context).toOpaque()))
      let result: T
      do {
        result = try body()
      } catch {
        try? check(sqlite3_set_authorizer(handle, nil, nil))
        throw error
      }
      try check(sqlite3_set_authorizer(handle, nil, nil))
      return result
    }
  }
}
