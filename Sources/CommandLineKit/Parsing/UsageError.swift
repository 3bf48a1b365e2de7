/// A command line that does not fit the command's declaration (exit 64, docs/exit-codes.md
/// "Usage or bad data").
///
/// ``message`` reads like swift-argument-parser's: `Unknown option '--foo'`,
/// `Missing expected argument '<animal>'`, `Missing value for '--name <name>'`,
/// `The value 'huge' is invalid for '--paw <paw>'. Please provide one of …`,
/// `Unexpected argument 'x'`, `Unknown command 'x'`. ``rendered`` is the full
/// stderr text:
///
/// ```
/// inspector: error: Missing expected argument '<animal>'
/// Usage: inspector show <animal> [--db <path>] [--format <format>] …
/// See 'inspector show --help'.
/// ```
///
/// The exit status is the caller's to choose (64, `EX_USAGE`).
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  // MARK: - Properties

  /// What kind of problem it is.
  public var kind: Kind
  /// The one-sentence problem, without the `inspector: error: ` prefix.
  public var message: String
  /// The program name, "inspector".
  public var programName: String
  /// The subcommand words of the command being parsed when the error was found.
  public var commandPath: [String]
  /// That command's usage synopsis, without the `Usage: ` prefix.
  public var usage: String

  // MARK: - Init

  /// Creates a usage error; ``ArgumentParser/usageError(_:kind:commandPath:)`` fills
  /// in the usage for you.
  ///
  /// - Parameters:
  ///   - kind: What kind of problem it is; defaults to ``Kind/conflict``, the kind of the
  ///     checks a command makes itself.
  ///   - message: The problem.
  ///   - programName: The program name.
  ///   - commandPath: The command's subcommand words.
  ///   - usage: The command's usage synopsis.
  public init(
    kind: Kind = .conflict, message: String, programName: String, commandPath: [String],
    usage: String
  ) {
    self.kind = kind
    self.message = message
    self.programName = programName
    self.commandPath = commandPath
    self.usage = usage
  }

  // MARK: - Public API

  /// The three stderr lines, joined by "\n" with no trailing newline:
  /// `<program>: error: <message>`, `Usage: <usage>`, `See '<program> <path> --help'.`
  public var rendered: String {
    let command = ([programName] + commandPath).joined(separator: " ")
    return """
      \(programName): error: \(TerminalText.oneLine(message))
      Usage: \(usage)
      See '\(command) --help'.
      """
  }

  /// The message alone.
  public var description: String { message }
}
