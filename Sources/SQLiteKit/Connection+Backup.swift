internal import CSQLite

extension Connection {
  /// Copies this whole database into `destination`, page by page, with SQLite's online backup
  /// API, while other connections keep reading and writing the source.
  ///
  /// The copy is a consistent snapshot: if another connection writes between steps, the backup
  /// restarts from the first page. The destination's previous content is replaced.
  ///
  /// - Parameters:
  ///   - destination: An open, writable connection (its `main` database is overwritten).
  ///   - pagesPerStep: Pages copied per step; -1 copies everything in one step.
  ///   - progress: Called after each step with (remaining, total) pages.
  /// - Throws: `SQLiteError`, e.g. ``ResultCode/busy`` when the source stays locked past the
  ///   busy timeout, or ``ResultCode/readOnly`` when the destination is read-only.
  /// - SQLite: <https://sqlite.org/backup.html>
  public func backup(
    into destination: Connection, pagesPerStep: Int = 1024,
    progress: ((_ remaining: Int, _ total: Int) -> Void)? = nil
  ) throws {
    guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
      throw destination.error(code: sqlite3_errcode(destination.handle), sql: nil)
    }
    var waited = 0
    while true {
      let rc = sqlite3_backup_step(backup, Int32(clamping: pagesPerStep))
      progress?(Int(sqlite3_backup_remaining(backup)), Int(sqlite3_backup_pagecount(backup)))
      if rc == SQLITE_DONE { break }
      if rc == SQLITE_OK { continue }
      if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) && waited < busyTimeout {
        sqlite3_sleep(10)
        waited += 10
        continue
      }
      sqlite3_backup_finish(backup)
      throw destination.error(code: rc, sql: nil)
    }
    try destination.check(sqlite3_backup_finish(backup))
  }
}
