import SQLiteKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Operations on a whole case file: check, verify a backup, restore (docs/operations.md).
public enum CaseFile {
  // MARK: - Check

  /// What `inspector check` found.
  public struct CheckReport: Equatable, Sendable {
    /// `PRAGMA integrity_check` output; `["ok"]` when sound.
    public var integrity: [String]
    /// `PRAGMA foreign_key_check` rows; empty when sound.
    public var foreignKeys: [ForeignKeyViolation]
    /// Each migration's state (drift, pending and unknown ones are faults).
    public var migrations: [MigrationStatus]
    /// Every finding of every check, faults and notes, in the order the checks ran: integrity,
    /// foreign keys, migrations, `application_id`, schema, derived columns and domain rules.
    public var findings: [CheckFinding]
    /// The checks that did not run because the file's schema predates what they need (pending
    /// migrations): `application_id` below version 4; `derived_column`, `duplicate` and
    /// `domain` below 5; `history` below 7; `schema` at version 0. Each group also has a note
    /// in ``findings``. Empty for an up-to-date file.
    public var skipped: [CheckFinding.Kind] = []

    /// The findings that are faults.
    public var faults: [CheckFinding] { findings.filter { $0.severity == .fault } }

    /// `true` when no check found a fault (notes allowed).
    public var isHealthy: Bool { faults.isEmpty }
  }

  /// Runs every check on `connection`: `integrity_check`, `foreign_key_check`, the migrations,
  /// the header's `application_id`, the live schema against the migrations'
  /// (`SchemaComparison`), and the case file's own invariants (`InvariantCheck`). Read-only.
  ///
  /// - Throws: `SQLiteError` when the file is too damaged to check at all.
  public static func check(_ connection: Connection) throws -> CheckReport {
    try check(connection, integrity: try connection.integrityCheck())
  }

  /// `foreign_key_check`, or the error it stops with (a parent table that is gone makes
  /// SQLite refuse the whole check) as the one problem found.
  private static func foreignKeyCheck(_ connection: Connection) -> (
    violations: [ForeignKeyViolation], failure: String?
  ) {
    do {
      return (try connection.foreignKeyCheck(), nil)
    } catch {
      return ([], sqliteMessage(error))
    }
  }

  /// SQLite's own message for an `SQLiteError` (`database disk image is malformed`), without
  /// the code and the statement that a finding has no room for; any other error as it prints.
  static func sqliteMessage(_ error: any Error) -> String {
    (error as? SQLiteError)?.message ?? "\(error)"
  }

  /// ``check(_:)`` with the `integrity_check` result already in hand (a restore runs it first).
  static func check(
    _ connection: Connection, integrity: [String], history: Bool = true
  ) throws -> CheckReport {
    try check(connection, history: history) { integrity }
  }

  /// ``check(_:)`` with `integrity_check`'s messages asked for last, so that the check can run
  /// on another connection meanwhile (``BackgroundIntegrityCheck``); its findings still come
  /// where ``check(_:)`` lists them. `uncompilable` is what ``uncompilableSchema(_:)`` found,
  /// when the caller already probed (a restore's verdict does, first); `nil` probes here.
  /// `invariants`, when given, is the queue shared with that other connection: it is handed
  /// ``InvariantCheck/jobs(foldedKeys:)`` once the schema version is known (or cancelled when
  /// the file is too old for them), this connection joins in after the history's check, and
  /// their findings still come where ``check(_:)`` lists them.
  static func check(
    _ connection: Connection, history: Bool = true, uncompilable: [String]? = nil,
    sharing invariants: SharedCheckJobs? = nil, integrity: () throws -> [String]
  ) throws -> CheckReport {
    let (foreignKeys, foreignKeyFailure) = foreignKeyCheck(connection)
    let migrations = try CaseDatabase.migrator.status(of: connection)
    var findings: [CheckFinding] = []
    if let foreignKeyFailure {
      findings.append(
        CheckFinding(
          .fault, .foreignKey, "foreign_key_check could not run: \(foreignKeyFailure)",
          hint: "see the other findings (a damaged file, or a table that is missing)"))
    }
    let integrityFindingsIndex = findings.count
    findings += foreignKeys.filter { $0.table != "favorite_fruits" }.map { violation in
      CheckFinding(
        .fault, .foreignKey, table: violation.table,
        row: violation.rowID.map { "rowid \($0)" },
        "refers to a row of \(violation.parent) that does not exist",
        hint: "remove the row or restore the missing \(violation.parent) row")
    }
    if foreignKeys.contains(where: { $0.table == "favorite_fruits" }) {
      findings += (try? danglingFavorites(connection)) ?? []
    }
    let applicationID = try connection.scalar("PRAGMA application_id")?.integerValue ?? 0
    let recordsMissing =
      try !CaseDatabase.migrator.hasBookkeeping(connection)
      && applicationID == Int64(CaseDatabase.applicationID)
    // Without its records a case file's migrations are not pending: the schema finding below
    // names the missing table, and `migrate up` could not tell what is applied.
    findings += migrations.filter { $0.state != .applied && !recordsMissing }.map { status in
      CheckFinding(
        .fault, .migration, table: "schema_migrations", row: "version \(status.version)",
        "migration \(status.version) \(status.name) is \(status.state.rawValue)",
        hint: status.state == .pending ? "inspector migrate up" : "see inspector migrate status")
    }
    var version = try CaseDatabase.migrator.currentVersion(of: connection)
    if recordsMissing {
      // A case file whose migration records are gone: compare it with the latest schema, which
      // names the missing bookkeeping table, and check its rows all the same.
      version = CaseDatabase.migrator.latestVersion
    }
    if version >= 4 {
      if applicationID != Int64(CaseDatabase.applicationID) {
        findings.append(
          CheckFinding(
            .fault, .applicationID,
            "application_id is \(applicationID), not \(CaseDatabase.applicationID) (a case file's mark)",
            hint: "PRAGMA application_id = \(CaseDatabase.applicationID)"))
      }
    }
    var skipped: [CheckFinding.Kind] = []
    func skip(_ kinds: [CheckFinding.Kind], _ what: String, needs needed: Int) {
      skipped += kinds
      findings.append(
        CheckFinding(
          .note, kinds[0],
          "skipped: \(what) need(s) schema version \(needed); the file is at version \(version)",
          hint: "inspector migrate up"))
    }
    if version < 4 { skip([.applicationID], "the application_id check", needs: 4) }
    if version == 0 { skip([.schema], "the schema comparison", needs: 1) }
    findings += try SchemaComparison.findings(connection, version: version)
    // What a restore refuses as damage, `check` faults: a view or trigger that does not compile.
    findings += try (uncompilable ?? uncompilableSchema(connection)).map {
      CheckFinding(
        .fault, .schema, "\($0) (it does not compile, so a restore refuses the file)",
        hint: "drop or repair it with the sqlite3 shell")
    }
    if version >= 5 && version < InvariantCheck.foldedKeysVersion {
      findings.append(InvariantCheck.foldedKeysSkipped(version: version))
    }
    // With a second connection to share them, the case rules' checks run on it once its
    // integrity_check is done, and here after the history's, which only this connection can
    // run; their findings go here all the same.
    let invariantFindingsIndex = findings.count
    if version >= 5 {
      let foldedKeys = version >= InvariantCheck.foldedKeysVersion
      if let invariants {
        invariants.open(InvariantCheck.jobs(foldedKeys: foldedKeys))
      } else {
        findings += InvariantCheck.findings(connection, foldedKeys: foldedKeys)
      }
    } else {
      invariants?.cancel()
      skip(
        [.derivedColumn, .duplicate, .domain],
        "the case rules (derived columns, duplicates, domain values)", needs: 5)
    }
    // The history's check reads history_changes, the layout of migration 0014.
    if version < 14 && history { skip([.history], "the history check", needs: 14) }
    // From schema 16 on, one read of the history serves both checks (the chain's pass).
    if version >= HistoryChain.schemaVersion && history,
      let both = try? HistoryCheck.findingsWithChain(connection)
    {
      findings += both.history + both.chain
    } else if version >= 14 && history {
      do {
        findings += try HistoryCheck.findings(connection)
      } catch {
        findings.append(
          CheckFinding(
            .fault, .history, "the history cannot be replayed: \(Self.sqliteMessage(error))"))
      }
      if version >= HistoryChain.schemaVersion {
        do {
          findings += try HistoryChain.findings(connection)
        } catch {
          findings.append(
            CheckFinding(
              .fault, .history,
              "the history's seals cannot be verified: \(Self.sqliteMessage(error))"))
        }
      }
    }
    if connection.path != ":memory:" {
      findings += Connection.staleBackupFiles(besides: connection.path).map { path in
        CheckFinding(
          .note, .file, "\(path) is a temporary file left by a killed backup",
          hint: "the next backup into that directory removes it, or remove it by hand")
      }
      findings += Connection.foreignTemporaryFiles(besides: connection.path).map { path in
        CheckFinding(
          .note, .file,
          "\(path) is named like a temporary file of a killed backup; not removed: not a file"
            + " inspector writes",
          hint: "inspector leaves it alone; rename it if it is yours")
      }
    }
    if version >= 5, let invariants {
      findings.insert(
        contentsOf: InvariantCheck.listed(invariants.findings(helping: connection)),
        at: invariantFindingsIndex)
    }
    let integrity = try integrity()
    if integrity != ["ok"] {
      findings.insert(
        contentsOf: integrity.map {
          CheckFinding(
            .fault, .integrity, $0,
            hint: "restore a good backup: inspector restore BACKUP --force")
        }, at: integrityFindingsIndex)
    }
    return CheckReport(
      integrity: integrity, foreignKeys: foreignKeys, migrations: migrations,
      findings: findings, skipped: skipped)
  }

  /// `favorite_fruits` has no rowid, so `foreign_key_check` cannot name its rows: this names
  /// each dangling favourite by its key.
  private static func danglingFavorites(_ connection: Connection) throws -> [CheckFinding] {
    let rows = try connection.prepare(
      """
      SELECT ff.animal_id AS animal_id, ff.fruit_id AS fruit_id, a.id IS NULL AS no_animal
      FROM favorite_fruits ff
      LEFT JOIN animals a ON a.id = ff.animal_id LEFT JOIN fruits f ON f.id = ff.fruit_id
      WHERE a.id IS NULL OR f.id IS NULL ORDER BY ff.animal_id, ff.fruit_id
      """)
    var findings: [CheckFinding] = []
    while let row = try rows.nextRow() {
      let parent = try row.int64("no_animal") == 1 ? "animals" : "fruits"
      findings.append(
        CheckFinding(
          .fault, .foreignKey, table: "favorite_fruits",
          row: "animal_id \(try row.int64("animal_id")), fruit_id \(try row.int64("fruit_id"))",
          "refers to a row of \(parent) that does not exist",
          hint: "remove the row or restore the missing \(parent) row"))
    }
    return findings
  }

  /// The faults of `SchemaComparison` alone: objects of the tool's schema that are missing
  /// or differ from what the applied migrations create (for `migrate status`).
  ///
  /// - Throws: `SQLiteError` when a schema cannot be read.
  public static func schemaFaults(_ connection: Connection) throws -> [CheckFinding] {
    let version = try CaseDatabase.migrator.currentVersion(of: connection)
    return try SchemaComparison.findings(connection, version: version).filter {
      $0.severity == .fault
    }
  }

  // MARK: - Restore

  /// What a restore did.
  public struct RestoreSummary: Equatable, Sendable {
    /// The schema version of the restored database.
    public var schemaVersion: Int
    /// Suspects in the restored database (0 when its schema has no `animals` yet).
    public var suspects: Int
    /// `true` when the destination file did not exist before.
    public var created: Bool
    /// The faults of the source that the restore was told to accept (empty for a source that
    /// restores as it is); `check` lists them again in the restored database.
    public var acceptedFaults: [CheckFinding] = []

    /// `true` when the restored database predates this binary's schema (a backup made by an
    /// older inspector) and needs `inspector migrate up` before other commands accept it.
    public var migrationNeeded: Bool { schemaVersion < CaseDatabase.migrator.latestVersion }
  }

  /// Checks that `path` restores as it is: ``restorability(at:structure:busyTimeout:)`` with
  /// `integrity_check`, and no fault to accept.
  ///
  /// - Returns: The backup's schema version.
  /// - Throws: What ``restorability(at:structure:busyTimeout:)`` throws, or
  ///   ``CaseFileError/faulted(_:faults:)`` naming the faults a restore would have to accept.
  @discardableResult
  public static func verifyBackup(at path: String, busyTimeout: Int = 5000) throws -> Int {
    let verdict = try restorability(at: path, busyTimeout: busyTimeout)
    guard verdict.restoresAsItIs else {
      throw CaseFileError.faulted(path, faults: verdict.faults.map(\.summary))
    }
    return verdict.schemaVersion
  }

  /// Replaces the database at `destination` with the backup at `source`, atomically.
  ///
  /// Everything is checked before the destination is touched (a refusal, and a dry run, leave
  /// it byte for byte as it was); the copy then runs through SQLite's backup API into the live
  /// destination, which commits as one transaction (readers see the old or the new database,
  /// never a mix), then a `PASSIVE` checkpoint copies what no reader still needs into the main
  /// file. That is the mode of SQLite's automatic checkpoints: it never waits for a reader and
  /// never restarts or truncates the WAL, so a replicator that reads the WAL (Litestream) keeps
  /// every frame of the restore (docs/operations.md "Checkpoints").
  ///
  /// - Parameters:
  ///   - source: A file that ``restorability(at:structure:busyTimeout:)`` takes; one from an
  ///     older schema is restored as it is (see ``RestoreSummary/migrationNeeded``).
  ///   - destination: The database to replace, or a path to create (mode 0600).
  ///   - force: Replace a destination that holds case data (rows in any table but SQLite's and
  ///     the migrations' bookkeeping; see ``caseData(in:)``).
  ///   - acceptFaults: Restore a source whose ``Restorability/faults`` are not empty, as it is
  ///     (they are returned in ``RestoreSummary/acceptedFaults``); what the verdict throws for
  ///     is refused all the same.
  ///   - dryRun: Run every check, the destination's included, then stop before the copy.
  ///   - busyTimeout: Milliseconds to wait for another connection's lock on either file.
  /// - Throws: ``CaseFileError`` (``CaseFileError/holdsCaseData(_:rows:)`` without `force`,
  ///   ``CaseFileError/faulted(_:faults:)`` without `acceptFaults`),
  ///   `MigrationError.newerSchema`, or `SQLiteError` (e.g. `ResultCode.busy` when writers
  ///   hold the destination past the timeout).
  /// - SQLite: <https://sqlite.org/backup.html>
  public static func restore(
    from source: String, to destination: String, force: Bool, acceptFaults: Bool = false,
    dryRun: Bool = false, busyTimeout: Int = 5000
  ) throws -> RestoreSummary {
    let verdict = try restorability(at: source, busyTimeout: busyTimeout)
    if !verdict.restoresAsItIs && !acceptFaults {
      throw CaseFileError.faulted(source, faults: verdict.faults.map(\.summary))
    }
    let exists = access(destination, F_OK) == 0
    if exists {
      try requireDatabaseHeader(destination, allowEmpty: true)
      // With --force the destination's rows are replaced whatever they are: not counted.
      if !force {
        let rows = try caseData(in: try openForeign(destination, busyTimeout: busyTimeout))
        if !rows.isEmpty { throw CaseFileError.holdsCaseData(destination, rows: rows) }
      }
    }
    if dryRun {
      return RestoreSummary(
        schemaVersion: verdict.schemaVersion,
        suspects: try suspectCount(try openForeign(source, busyTimeout: busyTimeout)),
        created: !exists, acceptedFaults: verdict.faults)
    }
    let backup = try openForeign(source, busyTimeout: busyTimeout)
    let target = try Connection(
      path: destination, mode: .readWriteCreate, busyTimeout: busyTimeout)
    try backup.backup(into: target)
    // PASSIVE, as SQLite's automatic checkpoints: TRUNCATE would wait the busy timeout for any
    // reader (Litestream always holds one) and restart the WAL under a replicator.
    try? target.checkpoint(.passive)
    // The source passed integrity_check and the backup API copies it page for page, failing
    // on any write error; a second full check of the copy would double the time of a restore,
    // so the copy's size is compared instead.
    let copied = try target.scalar("PRAGMA page_count")?.integerValue
    let original = try backup.scalar("PRAGMA page_count")?.integerValue
    guard copied == original else {
      throw CaseFileError.damaged(
        destination,
        problems: ["the copy has \(copied ?? 0) pages, the backup \(original ?? 0)"])
    }
    return RestoreSummary(
      schemaVersion: try CaseDatabase.migrator.currentVersion(of: target),
      suspects: try suspectCount(target), created: !exists, acceptedFaults: verdict.faults)
  }

  /// Throws ``CaseFileError/notADatabase(_:)`` (naming `path`) unless the file is a regular
  /// file (after symbolic links; not a directory or FIFO) that is empty or starts with SQLite's
  /// header; ``CaseFileError/missing(_:)`` when it does not exist;
  /// `FileOperationError` when it cannot be read. Cheap: reads 16 bytes.
  public static func requireSQLiteFile(at path: String) throws {
    try requireDatabaseHeader(path, allowEmpty: true)
  }

  // MARK: - Private helpers

  /// Throws unless the file is a regular file that starts with SQLite's 16-byte header
  /// `SQLite format 3\0` (an empty file is an empty database when `allowEmpty`). A directory,
  /// FIFO or device is not a database; the open does not block on a FIFO.
  static func requireDatabaseHeader(_ path: String, allowEmpty: Bool = false) throws {
    try CaseFileProbe(path).requireSQLite(allowEmpty: allowEmpty)
  }

  private static func suspectCount(_ connection: Connection) throws -> Int {
    let hasAnimals = try connection.scalar(
      "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'animals'")
    guard hasAnimals != nil else { return 0 }
    return Int(try connection.scalar("SELECT count(*) FROM animals")?.integerValue ?? 0)
  }
}
