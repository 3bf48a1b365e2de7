import CaseStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Everything a command needs: its parsed arguments, the global options (README "A short tour"),
/// the environment, and a way to open the case file.
public struct CommandContext {
  // MARK: - Properties

  /// The parsed command line.
  public let arguments: ParsedArguments
  /// The process environment.
  public let environment: [String: String]
  /// The chosen output format (`--format`, `--json`; default table).
  public let format: OutputFormat
  /// Colour decisions for stdout.
  public let style: OutputStyle
  /// Milliseconds to wait for another writer (`--busy-timeout`, `$INSPECTOR_BUSY_TIMEOUT_MS`,
  /// default 5000).
  public let busyTimeout: Int
  /// The database path (`--db`, `$INSPECTOR_DB`, XDG default).
  public let databasePath: String
  /// Whether `--db` or `$INSPECTOR_DB` chose the path (otherwise it is the XDG default).
  public let databasePathIsExplicit: Bool
  /// Writes to stderr at once (progress, warnings); not part of the command's result.
  public let writeToStandardError: @Sendable (String) -> Void
  /// Where a listing writes its rows as it reads them (docs/output-formats.md "Streaming").
  public let output: OutputSink
  /// `--as`, else `$INSPECTOR_ACTOR` (when not empty), else `nil`: the login name is looked
  /// up only when a write needs it (``actor``).
  public let actorOption: String?
  /// `--note`: why the changes are made, for the history (docs/history.md).
  public let note: String?
  /// The parser, for usage errors that only a command can detect.
  let parser: ArgumentParser
  /// The command's declared values, converted, by ``CommandDeclaration/key``.
  private var values: [String: any Sendable] = [:]

  // MARK: - Init

  /// Resolves the global options, then converts each of the command's declared values.
  ///
  /// - Parameter declarations: The command's typed declarations; their values are read with
  ///   the context's subscripts.
  /// - Throws: ``UsageError`` for a malformed `--busy-timeout`, an empty `--db`, or a value a
  ///   declaration's type rejects; ``CommandFailure`` (exit 64) for a malformed
  ///   `$INSPECTOR_BUSY_TIMEOUT_MS` or no database path at all (when `usesDatabase`).
  init(
    arguments: ParsedArguments, parser: ArgumentParser, environment: [String: String],
    stdoutIsTerminal: Bool, writeToStandardError: @escaping @Sendable (String) -> Void,
    output: OutputSink = OutputSink(), declarations: [any CommandDeclaration] = [],
    usesDatabase: Bool = true
  ) throws {
    self.output = output
    let global = GlobalOptions()
    self.arguments = arguments
    self.parser = parser
    self.environment = environment
    self.writeToStandardError = writeToStandardError
    let chosenFormat: OutputFormat? = try Self.decode(global.format, arguments, parser)
    if try Self.decode(global.json, arguments, parser) as Bool {
      if let other = chosenFormat, other != .json {
        throw parser.usageError(
          "--json and --format \(other.rawValue) contradict each other",
          commandPath: arguments.commandPath)
      }
      format = .json
    } else {
      format = chosenFormat ?? .table
    }
    let noColor: Bool = try Self.decode(global.noColor, arguments, parser)
    let color: ColorChoice? = try Self.decode(global.color, arguments, parser)
    if noColor, let color, color != .never {
      throw parser.usageError(
        "--no-color and --color-output \(color.rawValue) contradict each other",
        commandPath: arguments.commandPath)
    }
    style = OutputStyle(
      isTerminal: stdoutIsTerminal, environment: environment, noColorFlag: noColor,
      choice: color ?? (noColor ? .never : ColorChoice.fromEnvironment(environment)))
    if let timeout: Milliseconds = try Self.decode(global.busyTimeout, arguments, parser) {
      busyTimeout = timeout.value
    } else if let timeoutText = environment["INSPECTOR_BUSY_TIMEOUT_MS"] {
      guard let value = Int(timeoutText), value >= 0 else {
        throw CommandFailure(
          "INSPECTOR_BUSY_TIMEOUT_MS is '\(timeoutText)': "
            + (WholeNumber.tooLargeReason(timeoutText)
              ?? "expected a whole number of milliseconds, 0 or more"),
          exitCode: .usage)
      }
      busyTimeout = value
    } else {
      busyTimeout = 5000
    }
    // An empty --db (e.g. `--db "$UNSET"`) must not fall through to the real case file.
    if let option: FilePath = try Self.decode(global.db, arguments, parser) {
      databasePath = option.path
      databasePathIsExplicit = true
    } else if let path = environment["INSPECTOR_DB"], !path.isEmpty {
      databasePath = path
      databasePathIsExplicit = true
    } else if let path = CommandContext.defaultDatabasePath(environment: environment) {
      databasePath = path
      databasePathIsExplicit = false
    } else if !usesDatabase {
      // `completions` and `manual` never open a case file.
      databasePath = ""
      databasePathIsExplicit = false
    } else {
      // Without HOME (`env -i`, some cron jobs) the default would land at /.local/share; a
      // relative one would move with the working directory.
      throw CommandFailure(
        CommandContext.noDefaultDatabasePathReason(environment: environment),
        hint: "give --db PATH or set INSPECTOR_DB", exitCode: .usage)
    }
    if let actor: String = try Self.decode(global.actor, arguments, parser) {
      actorOption = actor
    } else if let actor = environment["INSPECTOR_ACTOR"], !actor.isEmpty {
      actorOption = actor
    } else {
      actorOption = nil
    }
    note = try Self.decode(global.note, arguments, parser)
    for declaration in declarations {
      values[declaration.key] = try Self.decodeAny(declaration, arguments, parser)
    }
  }

  // MARK: - Public API

  /// `$XDG_DATA_HOME/fruit-inspectors/cases.sqlite` (an absolute XDG_DATA_HOME), else
  /// `$HOME/.local/share/fruit-inspectors/cases.sqlite`; `nil` when HOME is unset or relative.
  public static func defaultDatabasePath(environment: [String: String]) -> String? {
    let dataHome: String
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      dataHome = xdg
    } else if let home = environment["HOME"], home.hasPrefix("/") {
      dataHome = (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.local/share"
    } else {
      return nil
    }
    return dataHome + "/fruit-inspectors/cases.sqlite"
  }

  /// Why ``defaultDatabasePath(environment:)`` found no path, naming each variable as it is:
  /// `no database path: HOME is relative ('cases') and XDG_DATA_HOME is not set; the default
  /// database needs an absolute path in one of them`. A relative value is ignored, as the XDG
  /// Base Directory spec says of every `XDG_*` variable (docs/command-line.md, "The database
  /// path").
  ///
  /// - Parameter environment: The process environment.
  /// - Returns: One line, without the `inspector: error: ` prefix.
  static func noDefaultDatabasePathReason(environment: [String: String]) -> String {
    func state(_ name: String) -> String {
      switch environment[name] {
      case nil: "\(name) is not set"
      case "": "\(name) is empty"
      case let value?: "\(name) is relative ('\(value)')"
      }
    }
    return "no database path: \(state("HOME")) and \(state("XDG_DATA_HOME")); the default"
      + " database needs an absolute path in one of them"
  }

  /// Opens the existing case file (README "A short tour": only `init`, `demo` and `restore` may
  /// create it).
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
  public func openDatabase(write: Bool, allowingDamagedSchema: Bool = false) throws
    -> CaseDatabase
  {
    try requireDatabaseFile()
    let database = try CaseDatabase(
      path: databasePath, access: write ? .readWrite : .readOnly, busyTimeout: busyTimeout)
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

  /// Who (``actor``) and why (``note``) for the change sets of this run's writes
  /// (docs/history.md).
  ///
  /// - Throws: `CaseError.invalidValue` (exit 65) for a blank or over-long actor or note, or one
  ///   with terminal control characters.
  public func attribution() throws -> ChangeAttribution {
    try ChangeAttribution(actor: actor, note: note)
  }

  /// Who makes this run's changes: `--as`, else `$INSPECTOR_ACTOR`, else the login name (the
  /// user database's name for the effective user id, else `$LOGNAME` or `$USER`, else
  /// `uid N`).
  public var actor: String {
    if let actorOption { return actorOption }
    if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name {
      let text = String(cString: name)
      if !text.isEmpty { return text }
    }
    for variable in ["LOGNAME", "USER"] {
      if let name = environment[variable], !name.isEmpty { return name }
    }
    return "uid \(geteuid())"
  }

  /// Throws ``CommandFailure`` with exit 66 and a hint naming `inspector init` when there is
  /// no file at ``databasePath``, and `CaseFileError.notADatabase` (exit 66) when the path is
  /// not a regular file: SQLite fails on a directory, and blocks forever opening a FIFO.
  public func requireDatabaseFile() throws {
    guard fileExists(databasePath) else {
      throw CommandFailure(
        "no database at \(databasePath)",
        hint: "create it with 'inspector init' (or 'inspector demo' for the seed case)",
        exitCode: .noInput)
    }
    try CaseFile.requireSQLiteFile(at: databasePath)
  }

  /// Opens the case file, creating it (mode 0600; for the default path also its directories,
  /// mode 0700) and applying pending migrations.
  ///
  /// - Returns: The database and whether the file was created now.
  /// - Throws: ``CommandFailure`` with exit 73 when the file cannot be created,
  ///   `CaseFileError.notADatabase` when the path exists but is not a regular file, or what
  ///   ``CaseDatabase/init(path:access:busyTimeout:)`` throws.
  public func createDatabase() throws -> (database: CaseDatabase, created: Bool) {
    let existed = fileExists(databasePath)
    if existed {
      try CaseFile.requireSQLiteFile(at: databasePath)
    }
    if !existed {
      if !databasePathIsExplicit { try makeDirectories(parentOf: databasePath) }
      let descriptor = open(databasePath, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else {
        let reason = String(cString: strerror(errno))
        throw CommandFailure(
          "cannot create the database \(databasePath): \(reason)", exitCode: .cannotCreate)
      }
      close(descriptor)
    }
    let attribution = try attribution()
    do {
      let database = try CaseDatabase(
        path: databasePath, access: .create, busyTimeout: busyTimeout)
      database.attribution = attribution
      if existed { try refuseDamagedSchema(database, write: true) }
      return (database, !existed)
    } catch {
      if !existed { unlink(databasePath) }
      throw error
    }
  }

  /// A usage error for this command (exit 64), for checks the parser cannot declare.
  public func usageError(_ message: String) -> UsageError {
    parser.usageError(message, commandPath: arguments.commandPath)
  }

  /// The converted value of one of the command's options.
  subscript<Value>(option: Option<Value>) -> Value { value(of: option) }

  /// Whether one of the command's flags was given.
  subscript(flag: Flag) -> Bool { value(of: flag) }

  /// The converted value of one of the command's positional arguments.
  subscript<Value>(argument: Argument<Value>) -> Value { value(of: argument) }

  // MARK: - Private helpers

  private func value<Value>(of declaration: some CommandDeclaration) -> Value {
    guard let value = values[declaration.key] as? Value else {
      preconditionFailure("\(declaration.label) is not declared by this command")
    }
    return value
  }

  /// Converts one declaration's value to its declared type.
  private static func decode<Value>(
    _ declaration: some CommandDeclaration, _ arguments: ParsedArguments, _ parser: ArgumentParser
  ) throws(UsageError) -> Value {
    // The declaration's own type decides `Value`; the cast cannot fail.
    guard let value = try decodeAny(declaration, arguments, parser) as? Value else {
      preconditionFailure("\(declaration.label) decodes to another type")
    }
    return value
  }

  /// Converts one declaration's value, turning a rejected one into the usage error
  /// `The value 'x' is invalid for '--opt <v>': reason`.
  private static func decodeAny(
    _ declaration: any CommandDeclaration, _ arguments: ParsedArguments, _ parser: ArgumentParser
  ) throws(UsageError) -> any Sendable {
    do {
      return try declaration.decode(arguments)
    } catch {
      throw parser.invalidValue(
        error.value, label: declaration.label, commandPath: arguments.commandPath,
        reason: error.reason)
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

extension CommandContext {
  /// Opens the case file for writing and, in one transaction, resolves the `<animal>` argument,
  /// applies `change` to that suspect's id, and reads the suspect back.
  ///
  /// - Parameters:
  ///   - animal: The `<animal>` argument's value.
  ///   - change: The repository calls to make, given the database and the suspect's id.
  /// - Returns: The suspect as stored after the change.
  /// - Throws: What opening, resolving (``CaseError/unknownSuspect(_:)``,
  ///   ``CaseError/ambiguousSuspect(_:candidates:)``) or `change` throws; nothing is stored then.
  func changeSuspect(_ animal: String, _ change: (CaseDatabase, Int64) throws -> Void) throws
    -> Suspect
  {
    let database = try openDatabase(write: true)
    return try database.write {
      let id = try database.suspects.resolve(animal)
      try change(database, id)
      guard let suspect = try database.suspects.suspect(id: id) else {
        throw CaseError.unknownSuspect(animal)
      }
      return suspect
    }
  }
}
