/// One numbered schema change: the content of a file `migrations/NNNN_description.sql`.
///
/// docs/operations.md "migrate": applied in version order, each in its own transaction, and
/// recorded in `schema_migrations(version, name, checksum, applied_at)`.
public struct Migration: Sendable, Equatable {
  /// The number from the file name (`0002_incidents.sql` is 2); unique, at least 1.
  public let version: Int
  /// The description from the file name (`incidents`).
  public let name: String
  /// The SQL script, exactly as in the file.
  public let sql: String
  /// SHA-256 of the script's UTF-8 bytes, 64 hex digits; an applied migration whose checksum
  /// no longer matches is drift.
  public let checksum: String

  /// Creates a migration and computes its checksum.
  ///
  /// - Parameters:
  ///   - version: A positive number, unique among the migrations.
  ///   - name: A short description.
  ///   - sql: One or more statements; no `BEGIN`/`COMMIT` (the migrator wraps them).
  public init(version: Int, name: String, sql: String) {
    self.version = version
    self.name = name
    self.sql = sql
    self.checksum = sha256Hex(of: sql.utf8)
  }
}

/// Where one migration stands in one database (`migrate status`, docs/operations.md "migrate").
public struct MigrationStatus: Sendable, Equatable {
  /// Applied and unchanged, not yet applied, or applied from a file that has since changed.
  public enum State: String, Sendable {
    /// Recorded in `schema_migrations` with the same checksum.
    case applied
    /// Known to this binary and not recorded yet.
    case pending
    /// Recorded with another checksum: the file was edited after it was applied.
    case drift
    /// Recorded, but unknown to this binary (the database is newer).
    case unknown
  }

  /// The migration's version.
  public let version: Int
  /// Its name (from the binary, or from the database for unknown ones).
  public let name: String
  /// Its state.
  public let state: State
  /// When it was applied, ISO 8601 UTC (`2026-11-29T12:00:00Z`), or `nil` when pending.
  public let appliedAt: String?
}

/// Why the migrator refused or failed.
public enum MigrationError: Error, Equatable, CustomStringConvertible {
  /// Applied migrations whose files have changed since (versions listed); blocks `migrate up`.
  case drift(versions: [Int])
  /// The database records a version newer than this binary knows.
  case newerSchema(databaseVersion: Int, knownVersion: Int)
  /// A migration's SQL failed; the database is as it was before that migration.
  case failed(version: Int, name: String, error: SQLiteError)
  /// After the migration, `foreign_key_check` reported these rows (child table, rowid,
  /// parent table); the migration was rolled back.
  case foreignKeyViolation(version: Int, name: String, violations: [ForeignKeyViolation])
  /// `--to` named a version this binary does not have.
  case unknownTarget(version: Int)

  /// A one-line, human-readable reason.
  public var description: String {
    switch self {
    case .drift(let versions):
      let list = versions.map(String.init).joined(separator: ", ")
      return "migration drift: applied migration(s) \(list) changed since they were applied"
    case .newerSchema(let database, let known):
      return "the database schema is at version \(database), newer than this inspector knows"
        + " (\(known)); use a newer inspector"
    case .failed(let version, let name, let error):
      return "migration \(version) (\(name)) failed: \(error.message); nothing was changed"
    case .foreignKeyViolation(let version, let name, let violations):
      let shown = violations.prefix(3).map(\.description).joined(separator: ", ")
      let more = violations.count > 3 ? " and \(violations.count - 3) more" : ""
      return "migration \(version) (\(name)) left \(violations.count) foreign key"
        + " violation(s): \(shown)\(more); nothing was changed"
    case .unknownTarget(let version):
      return "no migration with version \(version)"
    }
  }
}
