import CaseStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opens the case file at a ``DatabaseLocation``, or creates it, and runs a command's unit of
/// work on it: the attribution of a write, the refusal of a damaged schema. The checks of the
/// file before SQLite sees the path are ``CaseDatabase``'s, made once.
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
  /// The file is looked at once, by ``CaseDatabase/init(checkingFileAt:access:busyTimeout:)``,
  /// before SQLite opens it (docs/design.md "The unit of work"). A file whose schema differs
  /// from what its migrations create is refused (docs/schema.md "A damaged schema"): a read
  /// could print an order its own columns contradict, and a write could go unrecorded by the
  /// history or leave a derived column behind.
  ///
  /// - Parameters:
  ///   - write: `false` opens read-only, for a reading command.
  ///   - allowingDamagedSchema: `true` for the commands that repair or maintain the file itself
  ///     (`sql --write`, `optimize`), which must work on a damaged schema.
  /// - Throws: ``CommandFailure`` with exit 66 when the file is missing (with a hint naming
  ///   `inspector init`), with exit 65 naming `inspector check` for a damaged schema;
  ///   `CaseError.invalidValue` (exit 65) for a bad `--as` or `--note` of a write; or whatever
  ///   ``CaseDatabase/init(checkingFileAt:access:busyTimeout:)`` throws.
  func open(write: Bool, allowingDamagedSchema: Bool = false) throws -> CaseDatabase {
    let database: CaseDatabase
    do {
      database = try CaseDatabase(
        checkingFileAt: location.path, access: write ? .readWrite : .readOnly,
        busyTimeout: busyTimeout)
    } catch CaseFileError.missing(let path) where path == location.path {
      throw noDatabase
    }
    if write { _ = try attribution() }
    if !allowingDamagedSchema { try refuseDamagedSchema(database, write: write) }
    return database
  }

  /// Opens the case file read-only and runs `body` in one read unit of work
  /// (``CaseDatabase/read(_:)``): how a ``ReadingCommand`` runs.
  ///
  /// - Parameter body: The command's reads.
  /// - Returns: What `body` returns.
  /// - Throws: What ``open(write:allowingDamagedSchema:)`` or `body` throws.
  func read<T>(_ body: (CaseReader) throws -> T) throws -> T {
    try open(write: false).read(body)
  }

  /// Opens the case file for writing and runs `body` in one write unit of work
  /// (``CaseDatabase/write(_:_:)``) attributed to ``actor`` and ``note``: one transaction, one
  /// change set. How a ``WritingCommand`` runs.
  ///
  /// - Parameter body: The command's changes.
  /// - Returns: What `body` returns.
  /// - Throws: What ``open(write:allowingDamagedSchema:)`` or `body` throws; nothing is stored
  ///   then.
  @discardableResult
  func write<T>(_ body: (CaseWriter) throws -> T) throws -> T {
    try write(reading: {}) { db, _ in try body(db) }
  }

  /// ``write(_:)`` for an ``ImportingCommand``: `input` runs after the file is opened and
  /// before the unit of work begins, so that no write lock is held while it reads.
  ///
  /// - Parameters:
  ///   - input: Reads what `body` needs from outside the case file.
  ///   - body: The command's changes, given what `input` read.
  /// - Returns: What `body` returns.
  /// - Throws: What opening, `input` or `body` throws; nothing is stored then.
  func write<Input, T>(
    reading input: () throws -> Input, _ body: (CaseWriter, Input) throws -> T
  ) throws -> T {
    let database = try open(write: true)
    let read = try input()
    return try database.write(try attribution()) { try body($0, read) }
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
  /// regular file: SQLite fails on a directory, and blocks forever opening a FIFO. One look at
  /// the file, for the commands that open it without ``CaseDatabase`` (`sql`, `check`,
  /// `backup`, `migrate`).
  func requireFile() throws {
    do {
      try CaseFile.requireSQLiteFile(at: location.path)
    } catch CaseFileError.missing(let path) where path == location.path {
      throw noDatabase
    }
  }

  /// The refusal of a missing case file: exit 66, with a hint naming `inspector init`.
  private var noDatabase: CommandFailure {
    CommandFailure(
      "no database at \(location.path)",
      hint: "create it with 'inspector init' (or 'inspector demo' for the seed case)",
      exitCode: .noInput)
  }

  /// Opens the case file, creating it (mode 0600; for the default path also its directories,
  /// mode 0700) and applying pending migrations.
  ///
  /// The file is created with `O_CREAT | O_EXCL` (an existing one is left alone), then looked
  /// at once, by ``CaseDatabase/init(checkingFileAt:access:busyTimeout:)``.
  ///
  /// - Returns: The database and whether the file was created now.
  /// - Throws: ``CommandFailure`` with exit 73 when the file cannot be created,
  ///   `CaseFileError.notADatabase` when the path exists but is not a regular file, or what
  ///   ``CaseDatabase/init(checkingFileAt:access:busyTimeout:)`` throws.
  func create() throws -> (database: CaseDatabase, created: Bool) {
    let path = location.path
    var descriptor = createExclusively(path)
    var failure = descriptor < 0 ? errno : 0
    if failure == ENOENT && !location.isExplicit {
      try makeDirectories(parentOf: path)
      descriptor = createExclusively(path)
      failure = descriptor < 0 ? errno : 0
    }
    let existed = failure == EEXIST
    guard descriptor >= 0 || existed else {
      let reason = String(cString: strerror(failure))
      throw CommandFailure("cannot create the database \(path): \(reason)", exitCode: .cannotCreate)
    }
    if descriptor >= 0 { close(descriptor) }
    _ = try attribution()
    do {
      let database = try CaseDatabase(
        checkingFileAt: path, access: .create, busyTimeout: busyTimeout)
      if existed { try refuseDamagedSchema(database, write: true) }
      return (database, !existed)
    } catch {
      if !existed { unlink(path) }
      throw error
    }
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

/// `open(2)` with `O_CREAT | O_EXCL`, mode 0600: a new file or -1 with `errno` set (outside
/// the opener, whose `open(write:)` would hide the C function).
private func createExclusively(_ path: String) -> Int32 {
  open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
}
