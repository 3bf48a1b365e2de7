/// What the command line said, once parsed against a ``CommandSpec`` tree.
///
/// Every lookup takes the declared name (long option name without dashes, or a
/// positional's name) and answers "absent" for a name the command did not
/// declare, so check spelling against the spec. Global options are read the
/// same way as the command's own.
///
/// ```swift
/// // inspector animal add --name Catie --fruit cherry --fruit fig --json
/// parsed.commandPath       // ["animal", "add"]
/// parsed.option("name")    // "Catie"
/// parsed.options("fruit")  // ["cherry", "fig"]
/// parsed.flag("json")      // true
/// ```
public struct ParsedArguments: Sendable, Equatable {
  // MARK: - Properties

  /// The subcommand words from the root to the command that runs, such as
  /// `["animal", "add"]`; empty for the root itself.
  public var commandPath: [String]
  /// Every positional value of the command, in order, after `--` ones included.
  public var positionals: [String]
  /// Values of valued options by long name, in command-line order.
  public var optionValues: [String: [String]]
  /// Long names of the flags that were given.
  public var flags: Set<String>
  /// Positional values by declared argument name (several for a repeating one).
  public var argumentValues: [String: [String]]

  // MARK: - Init

  /// Creates a parse result; the parser does this, tests may too.
  ///
  /// - Parameters:
  ///   - commandPath: Subcommand words from the root.
  ///   - positionals: Positional values in order.
  ///   - optionValues: Option values by long name.
  ///   - flags: Flags given.
  ///   - argumentValues: Positional values by argument name.
  public init(
    commandPath: [String], positionals: [String] = [], optionValues: [String: [String]] = [:],
    flags: Set<String> = [], argumentValues: [String: [String]] = [:]
  ) {
    self.commandPath = commandPath
    self.positionals = positionals
    self.optionValues = optionValues
    self.flags = flags
    self.argumentValues = argumentValues
  }

  // MARK: - Public API

  /// The value of a single-valued option (the parser refuses a second one), or `nil` when
  /// absent.
  ///
  /// - Parameter name: Long name without dashes ("db").
  /// - Returns: The value; may be "" when given as `--name=`.
  public func option(_ name: String) -> String? {
    optionValues[name]?.last
  }

  /// All values of a repeatable option, in command-line order; empty when absent.
  ///
  /// - Parameter name: Long name without dashes ("fruit").
  /// - Returns: The values.
  public func options(_ name: String) -> [String] {
    optionValues[name] ?? []
  }

  /// Whether a flag was given.
  ///
  /// - Parameter name: Long name without dashes ("json").
  /// - Returns: `true` when given at least once.
  public func flag(_ name: String) -> Bool {
    flags.contains(name)
  }

  /// The value of a positional argument, or `nil` when an optional one was left out.
  ///
  /// - Parameter name: The declared name ("animal").
  /// - Returns: The value (the first one, for a repeating argument).
  public func argument(_ name: String) -> String? {
    argumentValues[name]?.first
  }

  /// All values of a repeating positional argument; empty when none were given.
  ///
  /// - Parameter name: The declared name.
  /// - Returns: The values in order.
  public func arguments(_ name: String) -> [String] {
    argumentValues[name] ?? []
  }
}
