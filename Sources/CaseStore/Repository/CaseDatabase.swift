import SQLiteKit

/// The case file: one SQLite database holding suspects, fruits, interviews (and, from schema v2,
/// incidents), with the repositories that read and change them.
///
/// Opening checks the schema against the migrations this binary carries (docs/operations.md
/// "migrate"): ``Access/create`` applies what is pending; other accesses refuse a database whose
/// schema is behind (``CaseError/schemaOutOfDate(current:latest:)``), and ``Access/readWrite`` also
/// refuses one that is newer (`MigrationError.newerSchema`).
public final class CaseDatabase {
  // MARK: - Properties

  /// How to open the file.
  public enum Access: Sendable {
    /// Read only (a read-only SQLite connection; no write of any kind is possible).
    case readOnly
    /// Read and write an existing file.
    case readWrite
    /// Read and write, creating the file (mode 0600) and applying pending migrations.
    case create
  }

  /// The SQLite connection; exposed for ad-hoc SQL and operations.
  public let connection: Connection
  /// The `PRAGMA application_id` of every case file: the ASCII letters `FRIN` (0x4652494E),
  /// set by migration 0004 (`migrations/0004_application_id.sql`), so that `restore` and other
  /// readers of foreign files can tell a case database from any other SQLite file.
  ///
  /// SQLite: <https://sqlite.org/pragma.html#pragma_application_id>
  public static let applicationID: Int32 = 0x4652_494E
  /// The migrator over the migrations compiled into this binary from `migrations/`.
  public static let migrator = Migrator(migrations: embeddedMigrations)

  // MARK: - Init

  /// Opens a case file.
  ///
  /// - Parameters:
  ///   - path: The database file, or `:memory:` (only with ``Access/create``) for tests.
  ///   - access: Read only, read-write, or create-and-migrate.
  ///   - busyTimeout: Milliseconds to wait for another writer's lock (docs/operations.md
  ///     "Several writers, and locks").
  /// - Throws: `SQLiteError` when the file is missing (`ResultCode.cannotOpen`), not a
  ///   database (`ResultCode.notADatabase`) or locked past the timeout;
  ///   `CaseFileError.notACaseDatabase` with `.create` for another program's SQLite file;
  ///   ``CaseError/schemaOutOfDate(current:latest:)`` for an old schema (not with `.create`);
  ///   `MigrationError` for a newer schema (writes) or a failed migration.
  public init(path: String, access: Access, busyTimeout: Int = 5000) throws {
    let mode: Connection.OpenMode =
      switch access {
      case .readOnly: .readOnly
      case .readWrite: .readWrite
      case .create: .readWriteCreate
      }
    // Another program's SQLite file is refused before a writable open could touch it (turning
    // on WAL changes the file); the check reads the header and, only when the mark is missing,
    // the schema on a read-only connection.
    if access != .readOnly {
      try CaseFile.requireCaseFileOrNew(at: path, busyTimeout: busyTimeout)
    }
    connection = try Connection(path: path, mode: mode, busyTimeout: busyTimeout)
    let migrator = CaseDatabase.migrator
    switch access {
    case .create:
      // Records a migration queued for the search index (0010) are indexed at once; should
      // that fail (busy), the next write or search indexes them.
      if try !migrator.migrate(connection).isEmpty, try pendingSearchChanges() > 0 {
        _ = try? write {}
      }
    case .readWrite, .readOnly:
      let current = try migrator.currentVersion(of: connection)
      if current < migrator.latestVersion {
        // Another program's SQLite file is no case file to upgrade: say so, as `migrate up`
        // would, instead of suggesting it.
        if current == 0 && access == .readOnly {
          try CaseFile.requireCaseFileOrNew(at: path, busyTimeout: busyTimeout)
        }
        throw CaseError.schemaOutOfDate(current: current, latest: migrator.latestVersion)
      }
      if current > migrator.latestVersion, access == .readWrite {
        throw MigrationError.newerSchema(
          databaseVersion: current, knownVersion: migrator.latestVersion)
      }
    }
  }

  /// Opens a new private in-memory case file at the latest schema (for tests and benchmarks).
  ///
  /// - Throws: `MigrationError` if a migration fails (a build defect).
  public convenience init() throws {
    try self.init(path: ":memory:", access: .create)
  }

  // MARK: - Public API

  /// The suspects and their interviews.
  public var suspects: SuspectRepository { SuspectRepository(database: self) }
  /// The fruits.
  public var fruits: FruitRepository { FruitRepository(database: self) }
  /// The nibble incidents.
  public var incidents: IncidentRepository { IncidentRepository(database: self) }

  /// Runs `body` in one `IMMEDIATE` transaction (README "Guarantees", docs/command-line.md
  /// "Commands"): all of it is stored, or, when it throws, none of it.
  ///
  /// Inside an open transaction (a repository call made in another `write`) it is the
  /// savepoint `case_write` instead: a failed inner call undoes only itself, and the enclosing
  /// write decides about the rest. Before and after `body`, rows whose keys nobody vouches for
  /// get inspector's Unicode keys (docs/schema.md "Folded keys"); reads never do this.
  ///
  /// - Throws: What `body` throws, or `SQLiteError` (e.g. `ResultCode.busy`).
  public func write<T>(_ body: () throws -> T) throws -> T {
    func refoldThenRun() throws -> T {
      // Rows other clients wrote get their Unicode keys before any change relies on them, and
      // text the body wrote through SQL (undo, changes apply) gets them before the commit.
      try refoldUnvouchedKeys()
      let result = try body()
      try refoldUnvouchedKeys()
      return result
    }
    guard connection.isAutocommit else {
      return try connection.inSavepoint(named: "case_write", refoldThenRun)
    }
    return try transaction(refoldThenRun)
  }

  /// Who makes this database's changes and why: the actor and note of the change set that
  /// each transaction run by ``write(_:)`` (or by `sql --write`, ``AdHocQuery/run(writingTo:)``)
  /// records in the history. `nil` (the default) records change sets without an actor or
  /// note (docs/history.md).
  public var attribution: ChangeAttribution?

  /// Runs `body` in one `IMMEDIATE` transaction that is one change set of the history, with
  /// the ``attribution``'s actor and note: the change set is opened (`history_context` names
  /// it, so the schema's triggers file every change under it) before `body` and closed after
  /// it, inside the transaction; a change set that recorded nothing is removed again. Before
  /// it commits, the records queued for the search index are indexed (docs/search.md).
  ///
  /// - Throws: What `body` throws, or `SQLiteError`; nothing is stored then.
  func transaction<T>(_ body: () throws -> T) throws -> T {
    try connection.inTransaction(.immediate) {
      try connection.execute(
        """
        INSERT INTO history_change_sets (at, actor, note, grouping)
        VALUES (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?, ?, 'transaction')
        """, [attribution?.actor, attribution?.note])
      let changeSet = connection.lastInsertRowID
      try connection.execute(
        "INSERT OR REPLACE INTO history_context (only, change_set_id) VALUES (1, ?)", [changeSet])
      let result = try body()
      // Every write leaves the search index up to date for every reader (docs/search.md).
      try drainSearchQueue()
      try connection.execute("DELETE FROM history_context")
      try connection.execute(
        """
        DELETE FROM history_change_sets
        WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM history_entries WHERE change_set_id = ?1)
        """, [changeSet])
      return result
    }
  }

  // MARK: - Internal helpers

  /// A prepared statement from the connection's cache (`Connection.cachedStatement(_:)`):
  /// prepared once, reset and returned to the cache when the caller lets go of it.
  func statement(_ sql: String) throws -> Statement {
    try connection.cachedStatement(sql)
  }
}
