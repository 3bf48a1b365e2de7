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
  }

  /// Copies the case file at `path` to `destination` with SQLite's online backup API (see
  /// `Connection.backup(to:pagesPerStep:verify:progress:)`: a temporary file beside the target,
  /// checked, synced, renamed; a symbolic link written through).
  ///
  /// - Parameters:
  ///   - path: The case file; it stays in use by others during the copy.
  ///   - destination: The output file, already checked against the output-file rule with
  ///     this case file among the databases it protects.
  ///   - busyTimeout: Milliseconds to wait for another connection's lock.
  ///   - verify: How the copy is checked before it is renamed into place: `quick_check` by
  ///     default, `integrity_check` for `full`, or nothing.
  ///   - progress: Called after each step with (remaining, total) pages; may throw to stop.
  /// - Returns: The destination as given and its page count.
  /// - Throws: `FileOperationError` or `SQLiteError` from the copy; what `progress` throws.
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
    return BackupSummary(path: destination.path, pages: Int(pages))
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
    // integrity_check, the longest part, runs on a second connection meanwhile.
    let integrity = BackgroundIntegrityCheck(
      on: try Connection.openForChecking(path: path, busyTimeout: busyTimeout).connection)
    return try check(connection) { try integrity.messages() }
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
  /// - Returns: The migrations applied (or that would be) and the schema version afterwards.
  /// - Throws: ``CaseFileError/notACaseDatabase(_:reason:)``, `MigrationError`, or
  ///   `SQLiteError`.
  public static func migrate(
    at path: String, upTo target: Int?, dryRun: Bool, busyTimeout: Int = 5000
  ) throws -> (applied: [Migration], version: Int) {
    try requireCaseFileOrNew(at: path, busyTimeout: busyTimeout)
    let connection = try Connection(
      path: path, mode: dryRun ? .readOnly : .readWrite, busyTimeout: busyTimeout)
    let applied = try CaseDatabase.migrator.migrate(connection, upTo: target, dryRun: dryRun)
    // Records a migration queued for the search index (0010) are indexed at once; should
    // that fail (busy), the migrations stand and the next write or search indexes them.
    if !dryRun, !applied.isEmpty,
      try CaseDatabase.migrator.currentVersion(of: connection)
        == CaseDatabase.migrator.latestVersion
    {
      _ = try? CaseDatabase(path: path, access: .readWrite, busyTimeout: busyTimeout)
        .refreshSearchIndex()
    }
    return (applied, try CaseDatabase.migrator.currentVersion(of: connection))
  }
}
