import SQLiteKit

/// The one verdict on whether a file restores as it is, which `restore` asks of its source and
/// `backup` of the copy it has just written (docs/operations.md "What restores"), so that what
/// `backup` makes without complaint `restore` takes back.
extension CaseFile {
  // MARK: - Restorability

  /// What ``restorability(at:structure:busyTimeout:)`` found in a file that is a case file.
  public struct Restorability: Equatable, Sendable {
    /// The file's schema version (at most this binary's).
    public var schemaVersion: Int
    /// The faults a restore refuses unless told to accept them: rows that break a `CHECK` or
    /// `NOT NULL` constraint or a STRICT column type (`integrity_check`), dangling rows
    /// (`foreign_key_check`), a missing `application_id` at schema version 4 or later, the
    /// schema differing from the migrations' (an index or trigger missing or changed, a
    /// trigger on a case table they do not create), and the case rules (`derived_column`, `duplicate`,
    /// `domain`), in the order `check` lists them. Empty when the file restores as it is.
    public var faults: [CheckFinding]

    /// `true` when a plain restore takes the file.
    public var restoresAsItIs: Bool { faults.isEmpty }
  }

  /// Decides whether the file at `path` restores, without running any of its views or
  /// triggers: what no option restores throws; the faults a restore may accept on purpose are
  /// returned.
  ///
  /// Refused outright, in this order: no regular file with SQLite's header; an
  /// `application_id` (header bytes 68-71) other than ``CaseDatabase/applicationID``, or 0
  /// without a `schema_migrations` table recording only known migrations with their checksums;
  /// damage `integrity_check` (or `quick_check`) finds in pages, b-trees or indexes; a view or
  /// trigger that does not compile under `PRAGMA trusted_schema = OFF` (prepared, never run);
  /// a schema newer than this binary's; one of the migrations' tables missing. Everything else
  /// `check` calls a fault is returned in ``Restorability/faults``; pending migrations of an
  /// older file are no fault, files beside it are not part of it, and the case history is not
  /// replayed (`check` reports it once the file is restored).
  ///
  /// - Parameters:
  ///   - path: The file to judge; opened query-only, never changed.
  ///   - structure: `full` runs `integrity_check` (a restore); `quick` runs `quick_check`,
  ///     which also verifies `CHECK` and `NOT NULL` constraints and STRICT types but does not
  ///     match indexes to their tables (a backup's default); `none` checks no page.
  ///   - busyTimeout: Milliseconds to wait for another connection's lock.
  /// - Returns: The schema version and the faults that may be accepted.
  /// - Throws: ``CaseFileError`` (`missing`, `notADatabase`, `notACaseDatabase`, `damaged`) or
  ///   `MigrationError.newerSchema`.
  /// - SQLite: <https://sqlite.org/pragma.html#pragma_application_id>,
  ///   <https://sqlite.org/pragma.html#pragma_integrity_check>,
  ///   <https://sqlite.org/pragma.html#pragma_trusted_schema>
  public static func restorability(
    at path: String, structure: BackupVerification = .full, busyTimeout: Int = 5000
  ) throws -> Restorability {
    let applicationID = try applicationID(at: path)
    guard applicationID == CaseDatabase.applicationID || applicationID == 0 else {
      let hex = String(UInt32(bitPattern: applicationID), radix: 16, uppercase: true)
      throw CaseFileError.notACaseDatabase(path, reason: "application_id 0x\(hex)")
    }
    let connection = try openForeign(path, busyTimeout: busyTimeout)
    // The page check, the longest part, runs on a second connection while the rest is checked;
    // its verdict comes first, since a damaged file makes the other checks fail too.
    let background =
      structure == .none
      ? nil
      : BackgroundIntegrityCheck(
        on: try openForeign(path, busyTimeout: busyTimeout), quick: structure == .quick)
    func integrity() throws -> [String] {
      guard let background else { return ["ok"] }
      let problems: [String]
      do {
        problems = try background.messages()
      } catch let error as SQLiteError where error.code != .busy && error.code != .locked {
        throw CaseFileError.damaged(path, problems: [error.message])
      }
      let damage = problems.filter { $0 != "ok" && !isRowConstraintMessage($0) }
      guard damage.isEmpty else { throw CaseFileError.damaged(path, problems: damage) }
      return problems
    }
    do {
      return try restorability(
        of: connection, path: path, applicationID: applicationID, integrity: integrity)
    } catch {
      _ = try integrity()
      throw error
    }
  }

  /// `true` for a line of `integrity_check` or `quick_check` that names a row breaking a
  /// constraint of its table (`CHECK constraint failed in T`, `NULL value in T.C`,
  /// `non-INTEGER value in T.C`), which another client can store with the checks off; every
  /// other line is damage to the file itself. SQLite gives these lines no code, so they are told
  /// apart by the fixed words SQLite 3.37 and later print.
  ///
  /// SQLite: <https://sqlite.org/pragma.html#pragma_integrity_check>
  static func isRowConstraintMessage(_ message: String) -> Bool {
    if message.hasPrefix("CHECK constraint failed in ") || message.hasPrefix("NULL value in ") {
      return true
    }
    guard message.hasPrefix("non-"), let space = message.firstIndex(of: " ") else { return false }
    return message[space...].hasPrefix(" value in ")
  }

  // MARK: - Private helpers

  /// The checks of ``restorability(at:structure:busyTimeout:)`` after the header, on
  /// `connection`; `integrity` waits for the page check (and throws for a damaged file).
  private static func restorability(
    of connection: Connection, path: String, applicationID: Int32,
    integrity: () throws -> [String]
  ) throws -> Restorability {
    if applicationID == 0 { try requireKnownMigrations(connection, path: path) }
    let uncompilable = try uncompilableSchema(connection)
    if let problem = uncompilable.first { throw CaseFileError.damaged(path, problems: [problem]) }
    let version = try CaseDatabase.migrator.currentVersion(of: connection)
    let latest = CaseDatabase.migrator.latestVersion
    if version > latest {
      throw MigrationError.newerSchema(databaseVersion: version, knownVersion: latest)
    }
    if let table = try SchemaComparison.missingTables(connection, version: version).first {
      throw CaseFileError.notACaseDatabase(
        path, reason: "its schema differs from inspector's: table \(table) is missing")
    }
    let faults = try check(
      connection, history: false, uncompilable: uncompilable, integrity: integrity
    ).faults.filter {
      $0.kind != .migration && $0.kind != .file
    }
    return Restorability(schemaVersion: version, faults: faults)
  }
}
