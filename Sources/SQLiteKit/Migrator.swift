/// Applies numbered migrations to a database and reports where it stands.
///
/// Rules: migrations run in version order, each in its own `IMMEDIATE` transaction that also
/// records it in `schema_migrations`, with foreign keys off while it runs (so a migration may
/// rebuild a table with SQLite's 12-step procedure without cascading deletes to its children);
/// `foreign_key_check` must pass before the commit; a failing migration leaves the database
/// exactly as before it, and foreign keys are on again afterwards in every case.
///
/// SQLite: <https://sqlite.org/lang_altertable.html#otheralter> The applied set is
/// read again inside each transaction, so two migrators on one file never apply one migration
/// twice: the second waits for the lock (busy timeout), then finds it applied.
public struct Migrator: Sendable {
  // MARK: - Properties

  /// The migrations this binary knows, in ascending version order.
  public let migrations: [Migration]

  /// The bookkeeping table, created by the migrator itself (not by a migration file).
  static let bookkeepingSQL = """
    CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY CHECK (version > 0),
      name TEXT NOT NULL,
      checksum TEXT NOT NULL,
      applied_at TEXT NOT NULL
    ) STRICT
    """

  // MARK: - Init

  /// Creates a migrator.
  ///
  /// - Parameter migrations: Any order; versions must be unique and positive (a duplicate is a
  ///   programming error and traps).
  public init(migrations: [Migration]) {
    let sorted = migrations.sorted { $0.version < $1.version }
    precondition(
      Set(sorted.map(\.version)).count == sorted.count && (sorted.first?.version ?? 1) > 0,
      "migration versions must be unique and positive")
    self.migrations = sorted
  }

  // MARK: - Public API

  /// The newest version this binary knows (0 when it knows none).
  public var latestVersion: Int { migrations.last?.version ?? 0 }

  /// The highest version recorded in the database, 0 for a new or unmigrated one.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  public func currentVersion(of connection: Connection) throws -> Int {
    guard try hasBookkeeping(connection) else { return 0 }
    return Int(
      try connection.scalar("SELECT max(version) FROM schema_migrations")?
        .integerValue ?? 0)
  }

  /// Every known migration's state, then any recorded ones this binary does not know.
  ///
  /// Works on read-only connections (a database without `schema_migrations` has everything
  /// pending).
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  public func status(of connection: Connection) throws -> [MigrationStatus] {
    let applied = try appliedRecords(connection)
    var result: [MigrationStatus] = migrations.map { migration in
      guard let record = applied[migration.version] else {
        return MigrationStatus(
          version: migration.version, name: migration.name, state: .pending, appliedAt: nil)
      }
      let state: MigrationStatus.State = record.checksum == migration.checksum ? .applied : .drift
      return MigrationStatus(
        version: migration.version, name: migration.name, state: state,
        appliedAt: record.appliedAt)
    }
    let known = Set(migrations.map(\.version))
    for (version, record) in applied.sorted(by: { $0.key < $1.key }) where !known.contains(version)
    {
      result.append(
        MigrationStatus(
          version: version, name: record.name, state: .unknown, appliedAt: record.appliedAt))
    }
    return result
  }

  /// The migrations not yet applied, in order.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  public func pendingMigrations(in connection: Connection) throws -> [Migration] {
    let applied = try appliedRecords(connection)
    return migrations.filter { applied[$0.version] == nil }
  }

  /// Applies pending migrations up to `target` (all when `nil`), each in its own transaction.
  ///
  /// - Parameters:
  ///   - connection: A writable connection.
  ///   - target: The last version to apply; must be a known version.
  ///   - dryRun: When `true`, checks drift and returns what would be applied, changing nothing.
  /// - Returns: The migrations applied (or that would be), in order; empty when up to date.
  /// - Throws: ``MigrationError/drift(versions:)`` when applied files changed,
  ///   ``MigrationError/newerSchema(databaseVersion:knownVersion:)`` for a newer database,
  ///   ``MigrationError/failed(version:name:error:)`` or
  ///   ``MigrationError/foreignKeyViolation(version:name:violations:)`` when one fails (earlier
  ///   migrations of the same run stay applied), or `SQLiteError` (e.g. ``ResultCode/busy``,
  ///   or ``ResultCode/misuse`` when called inside a transaction). `PRAGMA foreign_keys` is 1
  ///   on `connection` when this returns or throws.
  @discardableResult
  public func migrate(_ connection: Connection, upTo target: Int? = nil, dryRun: Bool = false)
    throws -> [Migration]
  {
    if let target, !migrations.contains(where: { $0.version == target }) {
      throw MigrationError.unknownTarget(version: target)
    }
    let limit = target ?? latestVersion
    if dryRun {
      try validate(try appliedRecords(connection))
      return try pendingMigrations(in: connection).filter { $0.version <= limit }
    }
    var applied: [Migration] = []
    for migration in migrations where migration.version <= limit {
      let didApply = try withForeignKeysOff(connection) {
        try connection.inTransaction(.immediate) { () throws -> Bool in
          try connection.execute(Migrator.bookkeepingSQL)
          let records = try appliedRecords(connection)
          try validate(records)
          guard records[migration.version] == nil else { return false }
          try apply(migration, on: connection)
          return true
        }
      }
      if didApply { applied.append(migration) }
    }
    return applied
  }

  /// Throws when the database is newer than this binary or has drifted.
  ///
  /// - Throws: ``MigrationError/newerSchema(databaseVersion:knownVersion:)`` or
  ///   ``MigrationError/drift(versions:)``.
  public func validate(_ connection: Connection) throws {
    try validate(try appliedRecords(connection))
  }

  // MARK: - Private helpers

  private struct Record {
    let name: String
    let checksum: String
    let appliedAt: String
  }

  /// `true` when the database has the migrator's `schema_migrations` table.
  ///
  /// - Throws: `SQLiteError` when the schema cannot be read.
  public func hasBookkeeping(_ connection: Connection) throws -> Bool {
    try connection.scalar(
      "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'") != nil
  }

  private func appliedRecords(_ connection: Connection) throws -> [Int: Record] {
    guard try hasBookkeeping(connection) else { return [:] }
    let statement = try connection.prepare(
      "SELECT version, name, checksum, applied_at FROM schema_migrations")
    var records: [Int: Record] = [:]
    while let row = try statement.nextRow() {
      records[Int(try row.int64("version"))] = Record(
        name: try row.text("name"), checksum: try row.text("checksum"),
        appliedAt: try row.text("applied_at"))
    }
    return records
  }

  private func validate(_ records: [Int: Record]) throws {
    if let newest = records.keys.max(), newest > latestVersion {
      throw MigrationError.newerSchema(databaseVersion: newest, knownVersion: latestVersion)
    }
    let drifted = migrations.filter { migration in
      records[migration.version].map { $0.checksum != migration.checksum } ?? false
    }
    if !drifted.isEmpty { throw MigrationError.drift(versions: drifted.map(\.version)) }
  }

  /// Runs `body` (one migration's transaction) with `PRAGMA foreign_keys = OFF`, and switches
  /// foreign keys back on afterwards, also when `body` throws: step 1 and step 12 of SQLite's
  /// procedure for schema changes ALTER TABLE cannot make. With foreign keys on, dropping a
  /// table to rebuild it would delete or block its children (`ON DELETE CASCADE`), and the
  /// pragma is a no-op inside a transaction, so it is set before `BEGIN`.
  ///
  /// - Throws: `SQLiteError` with ``ResultCode/misuse`` when a transaction is already open on
  ///   `connection` (foreign keys could not be switched off), or what `body` throws.
  /// - SQLite: <https://sqlite.org/lang_altertable.html#otheralter>,
  ///   <https://sqlite.org/pragma.html#pragma_foreign_keys>
  private func withForeignKeysOff<T>(_ connection: Connection, _ body: () throws -> T) throws
    -> T
  {
    guard connection.isAutocommit else {
      throw SQLiteError(
        extendedCode: .misuse,
        message: "migrations must run outside a transaction, so that foreign keys can be"
          + " switched off while they run")
    }
    try connection.execute("PRAGMA foreign_keys = OFF")
    var restored = false
    defer {
      if !restored { try? connection.execute("PRAGMA foreign_keys = ON") }
    }
    let result = try body()
    try connection.execute("PRAGMA foreign_keys = ON")
    restored = true
    return result
  }

  private func apply(_ migration: Migration, on connection: Connection) throws {
    do {
      try connection.execute(migration.sql)
    } catch let error as SQLiteError {
      throw MigrationError.failed(version: migration.version, name: migration.name, error: error)
    }
    // With foreign keys off nothing was enforced while the migration ran: check every row now,
    // before the commit, so a violation rolls the migration back.
    let violations = try connection.foreignKeyCheck()
    if !violations.isEmpty {
      throw MigrationError.foreignKeyViolation(
        version: migration.version, name: migration.name, violations: violations)
    }
    try connection.execute(
      """
      INSERT INTO schema_migrations (version, name, checksum, applied_at)
      VALUES (?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
      """, [migration.version, migration.name, migration.checksum])
  }
}
