internal import CSQLite

extension Connection {
  /// Whether the first statement of `sql` attaches a database (`ATTACH`), as SQLite's parser
  /// sees it; the statement is prepared and finalized, never run.
  ///
  /// Tells an `ATTACH` refused by ``ConnectionLimit/attachedDatabases`` apart from other
  /// `SQLITE_ERROR` failures without reading SQLite's message: comments, case and quoting make
  /// no difference. The check is the authorizer's `SQLITE_ATTACH` action; this connection's
  /// authorizer is replaced while the statement is prepared and removed afterwards, so do not
  /// call it inside ``withScriptGuard(_:)``.
  ///
  /// - Parameter sql: SQL starting with the statement to inspect; text after it is ignored.
  /// - Returns: `true` for an `ATTACH` statement; `false` for any other statement, or when
  ///   `sql` holds only whitespace and comments.
  /// - Throws: `SQLiteError` when the statement cannot be prepared (syntax error, unknown table).
  /// - SQLite: <https://sqlite.org/c3ref/set_authorizer.html>
  public func attachesDatabase(_ sql: String) throws -> Bool {
    let sighting = AttachSighting()
    return try withAuthorizer(
      { context, action, _, _, _, _ in
        if let context, action == SQLITE_ATTACH {
          Unmanaged<AttachSighting>.fromOpaque(context).takeUnretainedValue().seen = true
        }
        return SQLITE_OK
      }, context: sighting
    ) {
      try compileFirstStatement(of: sql)
      return sighting.seen
    }
  }

  /// Prepares the first statement of `sql` and finalizes it at once, never running it: what an
  /// installed authorizer sees of a statement (``attachesDatabase(_:)``,
  /// ``writesOnlyTemporaryObjects(_:)``).
  ///
  /// - Throws: `SQLiteError` when the statement cannot be prepared.
  func compileFirstStatement(of sql: String) throws {
    var bytes = Array(sql.utf8)
    var raw: OpaquePointer?
    let rc = bytes.withUnsafeMutableBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { text in
        sqlite3_prepare_v3(handle, text.baseAddress, Int32(text.count), 0, &raw, nil)
      }
    }
    sqlite3_finalize(raw)
    try check(rc, sql: sql)
  }
}

/// Whether the authorizer saw an `SQLITE_ATTACH` action; handed to SQLite as its context.
private final class AttachSighting {
  var seen = false
}
