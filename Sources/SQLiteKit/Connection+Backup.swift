internal import CSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
  ///   - progress: Called after each step with (remaining, total) pages; it may throw to stop
  ///     the copy (an interrupted backup), and the error is rethrown.
  /// - Throws: `SQLiteError`, e.g. ``ResultCode/busy`` when the source stays locked past the
  ///   busy timeout, or ``ResultCode/readOnly`` when the destination is read-only; or what
  ///   `progress` throws.
  /// - SQLite: <https://sqlite.org/backup.html>
  public func backup(
    into destination: Connection, pagesPerStep: Int = 1024,
    progress: ((_ remaining: Int, _ total: Int) throws -> Void)? = nil
  ) throws {
    guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
      throw destination.error(code: sqlite3_errcode(destination.handle), sql: nil)
    }
    var waited = 0
    var pages = Int32(clamping: pagesPerStep)
    var lastRemaining = Int32.max
    while true {
      let rc = sqlite3_backup_step(backup, pages)
      let remaining = sqlite3_backup_remaining(backup)
      do {
        try progress?(Int(remaining), Int(sqlite3_backup_pagecount(backup)))
      } catch {
        sqlite3_backup_finish(backup)
        throw error
      }
      if rc == SQLITE_DONE { break }
      if rc == SQLITE_OK {
        // Another connection wrote between steps and the copy started over: finish in one
        // step (a read transaction, which in WAL mode does not block writers), or a steady
        // stream of writes would restart it forever.
        if remaining >= lastRemaining { pages = -1 }
        lastRemaining = remaining
        continue
      }
      if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) && waited < busyTimeout {
        sqlite3_sleep(10)
        waited += 10
        continue
      }
      sqlite3_backup_finish(backup)
      try destination.check(rc)
    }
    try destination.check(sqlite3_backup_finish(backup))
  }
}

extension Connection {
  /// Writes a consistent copy of this database to the file `path`, never leaving a half file
  /// there: see ``backup(to:pagesPerStep:verify:progress:)``, with this database's own files
  /// protected.
  ///
  /// - Throws: ``OutputFileError``, before anything is written, when `path` (after symbolic
  ///   links) is a directory, device, FIFO or socket, or this database or its `-wal`, `-shm`
  ///   or `-journal`; otherwise what ``backup(to:pagesPerStep:verify:progress:)`` throws.
  /// - SQLite: <https://sqlite.org/backup.html>
  public func backup(
    toFile path: String, pagesPerStep: Int = 1024, verify: BackupVerification = .quick,
    progress: ((_ remaining: Int, _ total: Int) throws -> Void)? = nil
  ) throws {
    let file = try OutputFile(
      path: path, writing: "a backup",
      protecting: self.path == ":memory:" ? [] : [.init(path: self.path, role: "the database")])
    try backup(to: file, pagesPerStep: pagesPerStep, verify: verify, progress: progress)
  }

  /// Writes a consistent copy of this database to `file`, never leaving a half file there: the
  /// copy goes to the temporary file ``OutputFile/replace(_:)`` makes beside the target (mode
  /// 0600), is switched out of WAL mode (one self-contained file, no `-wal` beside it), passes
  /// the check `verify` asks for, is synced, and is then renamed over the target, and the
  /// directory is synced. A symbolic link is written through (its target gets the copy).
  ///
  /// - Parameters:
  ///   - file: The destination, already checked against the output-file rule.
  ///   - pagesPerStep: Pages copied per step of the online backup.
  ///   - verify: How the copy is checked before the rename (``BackupVerification/quick`` by
  ///     default).
  ///   - progress: Called after each step with (remaining, total) pages; it may throw to stop
  ///     the copy, which then removes the temporary file and rethrows.
  /// - Throws: ``FileOperationError`` when the temporary file cannot be created (missing or
  ///   unwritable directory), synced or renamed; `SQLiteError` from the copy (e.g.
  ///   ``ResultCode/busy``) or ``ResultCode/corrupt`` when the copy fails its check; what
  ///   `progress` throws. The temporary file is removed on failure. Temporary files that killed
  ///   backups (to any destination) left in the directory are removed first (see
  ///   ``removeStaleBackupFiles(besides:olderThan:)``).
  /// - SQLite: <https://sqlite.org/backup.html>
  public func backup(
    to file: OutputFile, pagesPerStep: Int = 1024, verify: BackupVerification = .quick,
    progress: ((_ remaining: Int, _ total: Int) throws -> Void)? = nil
  ) throws {
    try file.replace { temporary, _ in
      let destination = try Connection(
        path: temporary, mode: .readWrite, busyTimeout: busyTimeout, walMode: false)
      try backup(into: destination, pagesPerStep: pagesPerStep, progress: progress)
      try destination.execute("PRAGMA journal_mode = DELETE")
      if verify != .none {
        try Connection.verifyCopy(at: temporary, full: verify == .full, busyTimeout: busyTimeout)
      }
    }
  }

  /// Checks a backup's copy with `quick_check`, or `integrity_check` when `full`, on a read-only
  /// connection, which checks the structure only: a value that breaks a CHECK constraint in the
  /// source is copied faithfully, and `check` is the place to report it.
  ///
  /// - Throws: `SQLiteError` with ``ResultCode/corrupt`` naming the check and its findings
  ///   (a page too damaged to check at all stops the check itself with SQLITE_CORRUPT).
  static func verifyCopy(at path: String, full: Bool, busyTimeout: Int) throws {
    let checker = try Connection(path: path, mode: .readOnly, busyTimeout: busyTimeout)
    var problems: [String]
    do {
      problems = full ? try checker.integrityCheck() : try checker.quickCheck()
    } catch let error as SQLiteError where error.code == .corrupt {
      problems = [error.message]
    }
    guard problems == ["ok"] else {
      throw SQLiteError(
        extendedCode: .corrupt,
        message: "the copy failed \(full ? "integrity_check" : "quick_check"):"
          + " \(problems.joined(separator: "; "))")
    }
  }

  /// The directory part of `path` (`.` for a bare file name).
  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// `fsync` of a file or directory.
  static func sync(file path: String) throws {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw FileOperationError(path: path, operation: "open", code: errno)
    }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else {
      throw FileOperationError(path: path, operation: "sync", code: errno)
    }
  }
}
