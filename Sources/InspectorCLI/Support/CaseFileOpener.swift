import CaseStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opens the case file at a ``DatabaseLocation``, or creates it: the checks before SQLite sees
/// the path, the attribution of a write, the refusal of a damaged schema for a read.
struct CaseFileOpener: Sendable {
  /// Where the case file is.
  let location: DatabaseLocation
  /// Milliseconds to wait for another writer.
  let busyTimeout: Int
  /// Who makes the changes.
  let actor: ActorName
  /// Why the changes are made (`--note`).
  let note: String?

  /// Who (``ActorName``) and why (``note``) for the change sets of this run's writes
  /// (docs/history.md).
  ///
  /// - Throws: `CaseError.invalidValue` (exit 65) for a blank or over-long actor or note, or one
  ///   with terminal control characters.
  func attribution() throws -> ChangeAttribution {
    try ChangeAttribution(actor: actor.name, note: note)
  }

  /// Opens the existing case file (docs/command-line.md "The database path": only `init`, `demo`
  /// and `restore` may create it).
  ///
  /// A file whose schema differs from what its migrations create is refused (docs/schema.md
  /// "A damaged schema"): a read could print an order its own columns contradict, and a write
  /// could go unrecorded by the history or leave a derived column behind.
  ///
  /// - Parameters:
  ///   - write: `false` opens read-only, for a reading command.
  ///   - allowingDamagedSchema: `true` for the commands that repair or maintain the file itself
  ///     (`sql --write`, `optimize`), which must work on a damaged schema.
  /// - Throws: ``CommandFailure`` with exit 66 when the file is missing (with a hint naming
  ///   `inspector init`), with exit 65 naming `inspector check` for a damaged schema, or
  ///   whatever ``CaseDatabase/init(path:access:busyTimeout:)`` throws.
  func open(write: Bool, allowingDamagedSchema: Bool = false) throws -> CaseDatabase {
    try requireFile()
    let database = try CaseDatabase(
      path: location.path, access: write ? .readWrite : .readOnly, busyTimeout: busyTimeout)
    if write { database.attribution = try attribution() }
    if !allowingDamagedSchema { try refuseDamagedSchema(database, write: write) }
    return database
  }

  /// Throws when `database`'s schema differs from what its migrations create
  /// (docs/schema.md "A damaged schema"), saying what a read or a write could get wrong.
  ///
  /// - Throws: ``CommandFailure`` with exit 65 naming the first difference and `inspector check`.
  private func refuseDamagedSchema(_ database: CaseDatabase, write: Bool) throws {
    guard let fault = try database.schemaDamage().first else { return }
    throw CommandFailure(
      "the case file is damaged: its schema differs from what its migrations create ("
        + fault.message + "), so "
        + (write
          ? "a change could go unrecorded or leave its derived columns behind"
          : "its orders and derived columns cannot be trusted"),
      hint: "run 'inspector check' for every difference and how to repair it",
      exitCode: .dataError)
  }

  /// Throws ``CommandFailure`` with exit 66 and a hint naming `inspector init` when there is
  /// no file at the location, and `CaseFileError.notADatabase` (exit 66) when the path is not a
  /// regular file: SQLite fails on a directory, and blocks forever opening a FIFO.
  func requireFile() throws {
    guard fileExists(location.path) else {
      throw CommandFailure(
        "no database at \(location.path)",
        hint: "create it with 'inspector init' (or 'inspector demo' for the seed case)",
        exitCode: .noInput)
    }
    try CaseFile.requireSQLiteFile(at: location.path)
  }

  /// Opens the case file, creating it (mode 0600; for the default path also its directories,
  /// mode 0700) and applying pending migrations.
  ///
  /// - Returns: The database and whether the file was created now.
  /// - Throws: ``CommandFailure`` with exit 73 when the file cannot be created,
  ///   `CaseFileError.notADatabase` when the path exists but is not a regular file, or what
  ///   ``CaseDatabase/init(path:access:busyTimeout:)`` throws.
  func create() throws -> (database: CaseDatabase, created: Bool) {
    let path = location.path
    let existed = fileExists(path)
    if existed {
      try CaseFile.requireSQLiteFile(at: path)
    }
    if !existed {
      if !location.isExplicit { try makeDirectories(parentOf: path) }
      let descriptor = createExclusively(path)
      guard descriptor >= 0 else {
        let reason = String(cString: strerror(errno))
        throw CommandFailure(
          "cannot create the database \(path): \(reason)", exitCode: .cannotCreate)
      }
      close(descriptor)
    }
    let attribution = try attribution()
    do {
      let database = try CaseDatabase(path: path, access: .create, busyTimeout: busyTimeout)
      database.attribution = attribution
      if existed { try refuseDamagedSchema(database, write: true) }
      return (database, !existed)
    } catch {
      if !existed { unlink(path) }
      throw error
    }
  }

  private func fileExists(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0
  }

  private func makeDirectories(parentOf path: String) throws {
    var prefix = ""
    let components = path.split(separator: "/", omittingEmptySubsequences: true).dropLast()
    for component in components {
      prefix += "/" + component
      if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
        let reason = String(cString: strerror(errno))
        throw CommandFailure(
          "cannot create the directory \(prefix): \(reason)",
          exitCode: .cannotCreate)
      }
    }
  }
}

/// `open(2)` with `O_CREAT | O_EXCL`, mode 0600: a new file or -1 (outside the opener, whose
/// `open(write:)` would hide the C function).
private func createExclusively(_ path: String) -> Int32 {
  open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
}
