import SQLiteKit

/// The maintenance operations the CLI runs on a whole case file (`backup`, `check`,
/// `migrate status`, `migrate up`), so that no command opens a connection of its own: each
/// opens the file the way its job needs and returns plain results for the CLI to print.
extension CaseFile {
  // MARK: - Backup

  /// What a backup wrote.
  public struct BackupSummary: Equatable, Sendable {
    /// The destination as given.
    public var path: String
    /// Pages in the copy (`PRAGMA page_count`).
    public var pages: Int
    /// The faults for which a restore of the copy would be refused unless told to accept them
    /// (``Restorability/faults``); empty when it restores as it is, or was not checked
    /// (`verify: .none`).
    public var faults: [CheckFinding] = []
  }

  /// Copies the case file at `path` to `destination` with SQLite's online backup API (see
  /// `Connection.backup(to:pagesPerStep:verify:progress:)`: a temporary file beside the target,
  /// checked, synced, renamed; a symbolic link written through), then asks of the copy in place
  /// the verdict a restore asks of its source (``restorability(at:structure:busyTimeout:)``),
  /// so that a copy that will not restore as it is is said at once. Such a copy is kept: it is
  /// the newest copy there is, and the live database has the same faults.
  ///
  /// - Parameters:
  ///   - path: The case file; it stays in use by others during the copy.
  ///   - destination: The output file, already checked against the output-file rule with
  ///     this case file among the databases it protects.
  ///   - busyTimeout: Milliseconds to wait for another connection's lock.
  ///   - verify: How the copy is checked before it is renamed into place: `quick_check` by
  ///     default, `integrity_check` for `full`, or nothing; the restore verdict afterwards
  ///     checks pages the same way (`none`: no verdict at all, the copy may not restore).
  ///   - progress: Called after each step with (remaining, total) pages; may throw to stop.
  /// - Returns: The destination as given, its page count and the faults a restore of it would
  ///   have to accept (``BackupSummary/faults``).
  /// - Throws: `FileOperationError` or `SQLiteError` from the copy; what `progress` throws.
  ///   After the copy is in place: ``CaseFileError`` or `MigrationError.newerSchema` when no
  ///   restore would take it (the database is not a case file, or its schema does not
  ///   compile); the copy stays.
  /// - SQLite: <https://sqlite.org/backup.html>
  public static func backup(
    at path: String, to destination: OutputFile, busyTimeout: Int = 5000,
    verify: BackupVerification = .quick,
    progress: ((_ remaining: Int, _ total: Int) throws -> Void)? = nil
  ) throws -> BackupSummary {
    let source = try Connection(path: path, mode: .readOnly, busyTimeout: busyTimeout)
    try source.backup(to: destination, verify: verify, progress: progress)
    let pages =
      try Connection(path: destination.target, mode: .readOnly)
      .scalar("PRAGMA page_count")?.integerValue ?? 0
    let faults =
      verify == .none
      ? []
      : try restorability(at: destination.target, structure: verify, busyTimeout: busyTimeout)
        .faults
    return BackupSummary(path: destination.path, pages: Int(pages), faults: faults)
  }

  // MARK: - Check

  /// Runs ``check(_:)`` on the case file at `path`, on a query-only connection that can
  /// write where possible, because SQLite's `integrity_check` verifies CHECK constraints only
  /// there (`Connection.openForChecking(path:busyTimeout:)`); nothing is changed.
  ///
  /// - Throws: `SQLiteError` when the file cannot be opened or is too damaged to check.
  public static func check(at path: String, busyTimeout: Int = 5000) throws -> CheckReport {
    let connection = try Connection.openForChecking(path: path, busyTimeout: busyTimeout)
      .connection
    // integrity_check, the longest part, runs on a second connection meanwhile; that
    // connection then shares the case rules' checks with this one, which starts on them once
    // the history's pass is done.
    let invariants = SharedCheckJobs()
    let integrity = BackgroundIntegrityCheck(
      on: try Connection.openForChecking(path: path, busyTimeout: busyTimeout).connection,
      then: invariants)
    defer { invariants.cancel() }
    return try check(connection, sharing: invariants) { try integrity.messages() }
  }

  // MARK: - Migrations

  /// Each migration's state in the case file at `path`, and the schema faults that the
  /// recorded versions cannot show (a table another tool rebuilt).
  ///
  /// - Throws: `SQLiteError` when the file cannot be read.
  public static func migrationStatus(at path: String, busyTimeout: Int = 5000) throws -> (
    migrations: [MigrationStatus], schemaFaults: [CheckFinding]
  ) {
    let connection = try Connection(path: path, mode: .readOnly, busyTimeout: busyTimeout)
    return (
      try CaseDatabase.migrator.status(of: connection), try schemaFaults(connection)
    )
  }

  /// Applies the pending migrations of the case file at `path` up to `target` (all when
  /// `nil`), or with `dryRun` lists them and changes nothing. Another program's SQLite file is
  /// refused before it is opened for writing (``requireCaseFileOrNew(at:busyTimeout:)``).
  ///
  /// A case file at schema version 4 or later whose `application_id` is 0 (a copy made with the
  /// sqlite3 shell's `.dump`, which keeps the migration records but not the header) gets
  /// ``CaseDatabase/applicationID`` back: migration 0004 set it, and its record, with this
  /// binary's checksum, says so (docs/operations.md "migrate").
  ///
  /// - Returns: The migrations applied (or that would be), the schema version afterwards, and
  ///   whether the `application_id` was (or would be) restored.
  /// - Throws: ``CaseFileError/notACaseDatabase(_:reason:)``, `MigrationError`, or
  ///   `SQLiteError`.
  /// - SQLite: <https://sqlite.org/pragma.html#pragma_application_id>
  public static func migrate(
    at path: String, upTo target: Int?, dryRun: Bool, busyTimeout: Int = 5000
  ) throws -> (applied: [Migration], version: Int, applicationIDRestored: Bool) {
    try requireCaseFileOrNew(at: path, busyTimeout: busyTimeout)
    let connection = try Connection(
      path: path, mode: dryRun ? .readOnly : .readWrite, busyTimeout: busyTimeout)
    let applied = try CaseDatabase.migrator.migrate(connection, upTo: target, dryRun: dryRun)
    let recorded = try CaseDatabase.migrator.status(of: connection).contains {
      $0.version == 4 && $0.state == .applied
    }
    let unmarked = try connection.scalar("PRAGMA application_id")?.integerValue == 0
    let restore = recorded && unmarked
    if restore && !dryRun {
      try connection.execute("PRAGMA application_id = \(CaseDatabase.applicationID)")
    }
    // Records a migration queued for the search index (0010) are indexed at once; should
    // that fail (busy), the migrations stand and the next write or search indexes them.
    if !dryRun, !applied.isEmpty,
      try CaseDatabase.migrator.currentVersion(of: connection)
        == CaseDatabase.migrator.latestVersion
    {
      _ = try? CaseDatabase(path: path, access: .readWrite, busyTimeout: busyTimeout)
        .write(nil) { try $0.refreshSearchIndex() }
    }
    return (applied, try CaseDatabase.migrator.currentVersion(of: connection), restore)
  }
}
