import CaseStore
import CommandLineKit

/// What a command is handed: its typed values (``ParsedValues``), the global options
/// (``GlobalOptions/Resolved``), the case file (``CaseFileOpener`` at a ``DatabaseLocation``,
/// with the ``ActorName``), and where its output goes. Each job lives in its own piece; the
/// properties and methods here are the short forms every command uses.
public struct CommandContext {
  // MARK: - Properties

  /// The command's declared values, read typed: `try context[option]`.
  let values: ParsedValues
  /// The global options' values.
  let global: GlobalOptions.Resolved
  /// Opens or creates the case file.
  let caseFile: CaseFileOpener
  /// The process environment.
  public let environment: [String: String]
  /// Writes to stderr at once (progress, warnings); not part of the command's result.
  public let writeToStandardError: @Sendable (String) -> Void
  /// Where a listing writes its rows as it reads them (docs/output-formats.md "Streaming").
  public let output: OutputSink

  // MARK: - Init

  /// Resolves the global options, then checks each of the command's declared values.
  ///
  /// - Parameters:
  ///   - arguments: The parsed command line.
  ///   - parser: The parser that parsed it, for usage errors.
  ///   - environment: The process environment.
  ///   - stdoutIsTerminal: Whether stdout is a terminal.
  ///   - writeToStandardError: Receives live stderr text.
  ///   - output: Where stdout goes.
  ///   - declarations: The command's typed declarations.
  ///   - usesDatabase: Whether the command needs a database path.
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
    self.environment = environment
    self.writeToStandardError = writeToStandardError
    global = try GlobalOptions.Resolved(
      ParsedValues(arguments, declarations: [], parser: parser), environment: environment,
      stdoutIsTerminal: stdoutIsTerminal)
    let location = try DatabaseLocation(
      option: global.db, environment: environment, required: usesDatabase)
    caseFile = CaseFileOpener(
      location: location, busyTimeout: global.busyTimeout, actor: global.actor, note: global.note)
    values = try ParsedValues(arguments, declarations: declarations, parser: parser)
  }

  // MARK: - Public API

  /// The chosen output format (`--format`, `--json`; default table).
  public var format: OutputFormat { global.format }
  /// Colour decisions for stdout.
  public var style: OutputStyle { global.style }
  /// Milliseconds to wait for another writer (`--busy-timeout`, `$INSPECTOR_BUSY_TIMEOUT_MS`,
  /// default 5000).
  public var busyTimeout: Int { global.busyTimeout }
  /// The database path (`--db`, `$INSPECTOR_DB`, XDG default).
  public var databasePath: String { caseFile.location.path }

  /// Opens the existing case file: ``CaseFileOpener/open(write:allowingDamagedSchema:)``; for
  /// the commands that work on the file itself (`optimize`). A command that reads or changes
  /// the case is a ``ReadingCommand`` or ``WritingCommand`` and opens nothing.
  public func openDatabase(write: Bool, allowingDamagedSchema: Bool = false) throws
    -> CaseDatabase
  {
    try caseFile.open(write: write, allowingDamagedSchema: allowingDamagedSchema)
  }

  /// Throws when there is no case file: ``CaseFileOpener/requireFile()``.
  public func requireDatabaseFile() throws {
    try caseFile.requireFile()
  }

  /// Opens the case file, creating it: ``CaseFileOpener/create()``.
  public func createDatabase() throws -> (database: CaseDatabase, created: Bool) {
    try caseFile.create()
  }

  /// Who (`--as`) and why (`--note`) for a change set this command writes outside a
  /// ``WritingCommand``'s unit (`init --seed`, `demo`, `sql --write`): ``CaseFileOpener/attribution()``.
  ///
  /// - Throws: `CaseError.invalidValue` (exit 65) for a bad actor or note.
  public func attribution() throws -> ChangeAttribution {
    try caseFile.attribution()
  }

  /// A usage error for this command (exit 64), for checks the parser cannot declare.
  public func usageError(_ message: String) -> UsageError {
    values.usageError(message)
  }

  /// The converted value of one of the command's options.
  subscript<Value>(option: Option<Value>) -> Value {
    get throws(UsageError) { try values[option] }
  }

  /// Whether one of the command's flags was given.
  subscript(flag: Flag) -> Bool { values[flag] }

  /// The converted value of one of the command's positional arguments.
  subscript<Value>(argument: Argument<Value>) -> Value {
    get throws(UsageError) { try values[argument] }
  }
}
