import Foundation
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

  /// The SQLite connection; exposed for ad-hoc SQL and the file-level operations (check,
  /// optimize, backup). Case data is read and changed through ``read(_:)`` and
  /// ``write(_:_:)``.
  public let connection: Connection
  /// Whether a ``read(_:)`` or ``write(_:_:)`` is running (units of work do not nest).
  private var unitOfWorkIsOpen = false

  /// Whether the running unit's change set records what it reverted (`history_reverts`, set by
  /// `CaseHistory.recordReverts`): such a change set is kept even when it recorded no change.
  var changeSetRecordsReverts = false

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
  /// The file is looked at once before SQLite opens it (one `open`, `fstat` and 100-byte header
  /// read): a write access refuses another program's file from that look, and a read-only one
  /// uses it to name a foreign file whose schema is missing.
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
  public convenience init(path: String, access: Access, busyTimeout: Int = 5000) throws {
    try self.init(path: path, access: access, busyTimeout: busyTimeout, requiringFile: false)
  }

  /// Opens a case file as the command line does: besides what
  /// ``init(path:access:busyTimeout:)`` refuses, the one look at the file before SQLite opens
  /// it also refuses a missing file (unless `access` is ``Access/create``) and anything that is
  /// not a regular file starting with SQLite's header (an empty file is an empty database).
  /// SQLite fails on a directory, and blocks forever opening a FIFO.
  ///
  /// - Parameters:
  ///   - path: The database file.
  ///   - access: Read only, read-write, or create-and-migrate.
  ///   - busyTimeout: Milliseconds to wait for another writer's lock.
  /// - Throws: `CaseFileError.missing` when there is no file (not with `.create`),
  ///   `CaseFileError.notADatabase` for a directory, FIFO, device or other bytes,
  ///   `FileOperationError` when the file cannot be read, and what
  ///   ``init(path:access:busyTimeout:)`` throws.
  public convenience init(checkingFileAt path: String, access: Access, busyTimeout: Int = 5000)
    throws
  {
    try self.init(path: path, access: access, busyTimeout: busyTimeout, requiringFile: true)
  }

  /// Opens a new private in-memory case file at the latest schema (for tests and benchmarks).
  ///
  /// The migrations run once per process, into a template; each new database is a page-for-page
  /// copy of it (SQLite's online backup), which costs a small fraction of migrating anew.
  ///
  /// - Throws: `MigrationError` if a migration fails (a build defect); `SQLiteError` if the
  ///   copy fails (out of memory).
  public convenience init() throws {
    let copy = try Connection(path: ":memory:", mode: .readWriteCreate)
    try Self.migratedTemplate.copy(into: copy)
    self.init(connection: copy)
  }

  /// A new private case database, in memory or (`temporaryFile`) in a temporary file of
  /// SQLite's own, with the schema of the case file `source` reads and no rows but its
  /// `schema_migrations`: each table, index, view and trigger is created from its definition
  /// as `source`'s `sqlite_schema` holds it (a virtual table's own tables by the virtual
  /// table, which is created first: `VACUUM` may list them before it). For a case rebuilt
  /// from its history (docs/history.md "As of"): creating the schema at once costs a few
  /// milliseconds, migrating the template (``init()``) a few hundred, more than reading one
  /// suspect's history. A trigger for which `leavingOut` holds (given its name) is not created.
  ///
  /// - Throws: `SQLiteError` if `source` cannot be read or a definition fails.
  convenience init(
    schemaOf source: Connection, temporaryFile: Bool,
    leavingOut skipped: (_ trigger: String) -> Bool
  ) throws {
    let copy = try Connection(path: temporaryFile ? "" : ":memory:", mode: .readWriteCreate)
    let objects = try source.prepare(
      """
      SELECT type, name, sql FROM sqlite_schema
      WHERE sql IS NOT NULL AND substr(name, 1, 7) <> 'sqlite_'
      ORDER BY CASE WHEN type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%' THEN 0
        WHEN type = 'table' THEN 1 WHEN type = 'index' THEN 2 WHEN type = 'view' THEN 3 ELSE 4 END,
        rowid
      """)
    try copy.inTransaction(.immediate) {
      while let object = try objects.nextRow() {
        let name = try object.text("name")
        let type = try object.text("type")
        if type == "trigger" && skipped(name) { continue }
        if type == "table",
          try copy.scalar("SELECT 1 FROM sqlite_schema WHERE name = ?", [name]) != nil
        {
          continue
        }
        try copy.execute(try object.text("sql"))
      }
      let versions = try source.prepare("SELECT * FROM schema_migrations")
      let marks = Array(repeating: "?", count: versions.columnCount).joined(separator: ", ")
      let insert = try copy.prepare("INSERT INTO schema_migrations VALUES (\(marks))")
      while try versions.step() { try insert.run(versions.row()) }
    }
    self.init(connection: copy)
  }

  /// A new private in-memory case database holding a page-for-page copy of `source` (SQLite's
  /// online backup), so that tests can start many databases from one seeded template.
  ///
  /// - Throws: `SQLiteError` if the copy fails (`source` locked past its busy timeout, or out
  ///   of memory).
  convenience init(inMemoryCopyOf source: CaseDatabase) throws {
    let copy = try Connection(
      path: ":memory:", mode: .readWriteCreate, busyTimeout: source.connection.busyTimeout)
    try source.connection.backup(into: copy)
    self.init(connection: copy)
  }

  /// The in-memory database ``init()`` copies, migrated on first use.
  private static let migratedTemplate = MigratedTemplate()

  /// One in-memory database at the latest schema, behind a lock that also keeps two threads
  /// from copying it at once (a connection is used by one thread at a time).
  private final class MigratedTemplate: @unchecked Sendable {
    private let lock = NSLock()
    private var connection: Connection?

    /// Copies the template into `destination`, migrating it first on first use.
    func copy(into destination: Connection) throws {
      try lock.withLock {
        if connection == nil {
          connection = try CaseDatabase(path: ":memory:", access: .create).connection
        }
        try connection?.backup(into: destination)
      }
    }
  }

  /// Wraps a connection already at the latest schema.
  private init(connection: Connection) {
    self.connection = connection
  }

  /// Looks at the file once, applies the refusals of `access` (and of the command line when
  /// `requiringFile`), then opens and checks the schema.
  private init(path: String, access: Access, busyTimeout: Int, requiringFile: Bool) throws {
    let mode: Connection.OpenMode =
      switch access {
      case .readOnly: .readOnly
      case .readWrite: .readWrite
      case .create: .readWriteCreate
      }
    // The one look at the file; every refusal before SQLite opens it is decided from it.
    let probe = path == ":memory:" ? nil : CaseFileProbe(path)
    if let probe, requiringFile, access != .create || !probe.isMissing {
      try probe.requireSQLite(allowEmpty: true)
    }
    // Another program's SQLite file is refused before a writable open could touch it (turning
    // on WAL changes the file); the check reads the header and, only when the mark is missing,
    // the schema on a read-only connection.
    if access != .readOnly, let probe {
      try probe.requireCaseFileOrNew(busyTimeout: busyTimeout)
    }
    connection = try Connection(path: path, mode: mode, busyTimeout: busyTimeout)
    let migrator = CaseDatabase.migrator
    switch access {
    case .create:
      // Records a migration queued for the search index (0010) are indexed at once; should
      // that fail (busy), the next write or search indexes them.
      if try !migrator.migrate(connection).isEmpty, try pendingSearchChanges() > 0 {
        _ = try? write(nil) { _ in }
      }
    case .readWrite, .readOnly:
      let current = try migrator.currentVersion(of: connection)
      if current < migrator.latestVersion {
        // Another program's SQLite file is no case file to upgrade: say so, as `migrate up`
        // would, instead of suggesting it.
        if current == 0 && access == .readOnly, let probe {
          try probe.requireCaseFileOrNew(busyTimeout: busyTimeout)
        }
        throw CaseError.schemaOutOfDate(current: current, latest: migrator.latestVersion)
      }
      if current > migrator.latestVersion, access == .readWrite {
        throw MigrationError.newerSchema(
          databaseVersion: current, knownVersion: migrator.latestVersion)
      }
    }
  }

  // MARK: - Public API

  /// Runs `body` in one read transaction (`BEGIN DEFERRED`): every read of `body` sees one
  /// snapshot of the file, whatever other connections commit meanwhile; the next `read` sees
  /// their commits. On a writable connection, `PRAGMA query_only` is on during `body`, so a
  /// read never writes (on a read-only connection SQLite refuses writes anyway).
  ///
  /// The handle `body` is given (``CaseReader``) offers the read operations only: the
  /// repositories' look-ups and listings, the history, the search, the ranking. It is valid
  /// inside `body` only.
  ///
  /// - Parameter body: The reads; what it returns is returned.
  /// - Returns: What `body` returns.
  /// - Throws: ``UnitOfWorkError/alreadyOpen`` when a `read` or `write` is already running on
  ///   this database (units of work do not nest: use the handle you were given); what `body`
  ///   throws; `SQLiteError` when the transaction cannot begin.
  public func read<T>(_ body: (CaseReader) throws -> T) throws -> T {
    let reader = try beginOpenRead()
    defer { endOpenRead() }
    return try body(reader)
  }

  /// ``read(_:)`` left open across calls (``read(_:)`` is this and ``endOpenRead()`` around its
  /// body): begins the read transaction and returns its handle,
  /// valid until ``endOpenRead()``, which must follow. For a read that outlives one call, a
  /// response sent while it is read (``CaseDatabasePool/openRead()``). SQLite takes the
  /// snapshot at the first read.
  ///
  /// - Throws: ``UnitOfWorkError/alreadyOpen`` when a unit of work is open on this database;
  ///   `SQLiteError` when the transaction cannot begin.
  func beginOpenRead() throws -> CaseReader {
    guard !unitOfWorkIsOpen else { throw UnitOfWorkError.alreadyOpen }
    try connection.begin(.deferred)
    unitOfWorkIsOpen = true
    if connection.mode != .readOnly {
      do {
        try connection.cachedStatement("PRAGMA query_only = 1").run([])
      } catch {
        endOpenRead()
        throw error
      }
    }
    return CaseReader(database: self)
  }

  /// Ends the read ``beginOpenRead()`` began (nothing was written: it is rolled back).
  func endOpenRead() {
    guard unitOfWorkIsOpen else { return }
    if !connection.isAutocommit { try? connection.execute("ROLLBACK TRANSACTION") }
    if connection.mode != .readOnly {
      try? connection.cachedStatement("PRAGMA query_only = 0").run([])
    }
    unitOfWorkIsOpen = false
  }

  /// Runs `body` in one `IMMEDIATE` transaction that is one change set of the history
  /// (docs/history.md), with `attribution`'s actor and note: all of it is stored, or, when it
  /// throws, none of it (README "Guarantees", docs/command-line.md "Commands").
  ///
  /// The change set is opened (`history_context` names it, so the schema's triggers file every
  /// change under it) before `body` and closed after it, inside the transaction; a change set
  /// that recorded nothing is removed again, unless it records what an undo or redo reverted.
  /// Before it commits, the records queued for the
  /// search index are indexed (docs/search.md), and every change set not sealed yet (this one,
  /// and other clients' since the last write) is sealed into the history's hash chain
  /// (docs/history.md "Tamper evidence"). Before and after `body`, rows whose keys nobody
  /// vouches for get inspector's Unicode keys (docs/schema.md "Folded keys"); reads never do
  /// this. The handle `body` is given (``CaseWriter``)
  /// offers every operation, reads and writes; it is valid inside `body` only. However many
  /// operations `body` calls, they are one transaction and one change set.
  ///
  /// - Parameters:
  ///   - attribution: Who makes the changes and why; `nil` records the change set without an
  ///     actor or note.
  ///   - body: The changes; what it returns is returned.
  /// - Returns: What `body` returns.
  /// - Throws: ``UnitOfWorkError/alreadyOpen`` when a `read` or `write` is already running on
  ///   this database (nothing nests: use the handle you were given); what `body` throws;
  ///   `SQLiteError` (e.g. `ResultCode.busy`, or `ResultCode.readOnly` on a read-only
  ///   connection). Nothing is stored when it throws.
  @discardableResult
  public func write<T>(_ attribution: ChangeAttribution?, _ body: (CaseWriter) throws -> T)
    throws -> T
  {
    try withUnitOfWork {
      try changeSet(attribution) {
        // Rows other clients wrote get their Unicode keys before any change relies on them, and
        // text the body wrote through SQL (undo, changes apply) gets them before the commit.
        try refoldUnvouchedKeys()
        let result = try body(unit)
        try refoldUnvouchedKeys()
        return result
      }
    }
  }

  // MARK: - Internal helpers

  /// The operations of a unit of work, for code of the case store that runs inside one (the
  /// write handle; internal, so that no caller outside can reach it without a unit).
  var unit: CaseWriter { CaseWriter(database: self) }

  /// Marks a unit of work open while `body` runs.
  ///
  /// - Throws: ``UnitOfWorkError/alreadyOpen`` when one is open already, or what `body`
  ///   throws.
  private func withUnitOfWork<T>(_ body: () throws -> T) throws -> T {
    guard !unitOfWorkIsOpen else { throw UnitOfWorkError.alreadyOpen }
    unitOfWorkIsOpen = true
    defer { unitOfWorkIsOpen = false }
    return try body()
  }

  /// Runs `body` in one `IMMEDIATE` transaction that is one change set with `attribution`
  /// (see ``write(_:_:)``), with the bookkeeping's statements taken from the connection's
  /// cache.
  ///
  /// - Throws: What `body` throws, or `SQLiteError`; nothing is stored then.
  func changeSet<T>(_ attribution: ChangeAttribution?, _ body: () throws -> T) throws -> T {
    try connection.inTransaction(.immediate) {
      try statement(
        """
        INSERT INTO history_change_sets (at, actor, note, grouping, first_change_id)
        VALUES (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?, ?, 'transaction',
          \(ChangeSetBounds.nextChangeID))
        """
      ).run([attribution?.actor, attribution?.note])
      let changeSet = connection.lastInsertRowID
      changeSetRecordsReverts = false
      try statement("INSERT OR REPLACE INTO history_context (only, change_set_id) VALUES (1, ?)")
        .run([changeSet])
      let result = try body()
      // Every write leaves the search index up to date for every reader (docs/search.md).
      try drainSearchQueue()
      try statement("DELETE FROM history_context").run([])
      // This change set when it recorded nothing, unless it is an undo or redo that reverted
      // change sets whose rows already stood as it wrote them (its `history_reverts` rows
      // keep the undo stack walking past them).
      if !changeSetRecordsReverts,
        try ChangeSetBounds(connection: connection).changes(of: changeSet).isEmpty
      {
        try statement("DELETE FROM history_change_sets WHERE id = ?").run([changeSet])
      }
      // Every change set not sealed yet, this one and other clients' since the last write,
      // joins the history's hash chain before the commit (docs/history.md "Tamper evidence").
      try HistoryChain.seal(connection)
      return result
    }
  }

  /// Runs `body` as one unit of work that is one change set with `attribution`, without the
  /// re-folding of pending keys that ``write(_:_:)`` starts with: for `sql --write`, which
  /// must run on a file whose schema is damaged.
  func writeWithoutRefold<T>(_ attribution: ChangeAttribution?, _ body: () throws -> T) throws
    -> T
  {
    try withUnitOfWork { try changeSet(attribution, body) }
  }

  /// A prepared statement from the connection's cache (`Connection.cachedStatement(_:)`):
  /// prepared once, reset and returned to the cache when the caller lets go of it.
  func statement(_ sql: String) throws -> Statement {
    try connection.cachedStatement(sql)
  }

  /// Runs one statement with positional arguments through the statement cache, discarding any
  /// rows. The repositories' writes use it: a statement on a recorded table compiles the
  /// history's and the schema's triggers into itself, so preparing it again for every row
  /// cost more than the write (docs/history.md "Size").
  ///
  /// - Throws: `SQLiteError` from preparing, binding or stepping.
  func execute(_ sql: String, _ arguments: [any SQLiteBindable]) throws {
    let statement = try statement(sql)
    try statement.bind(arguments)
    while try statement.step() {}
  }

  /// The first column of the first row of a query run through the statement cache, or `nil`
  /// when there is no row.
  ///
  /// - Throws: `SQLiteError` from preparing, binding or stepping.
  func scalar(_ sql: String, _ arguments: [any SQLiteBindable] = []) throws -> SQLiteValue? {
    let statement = try statement(sql)
    try statement.bind(arguments)
    guard try statement.step() else { return nil }
    return statement.value(at: 0)
  }
}
