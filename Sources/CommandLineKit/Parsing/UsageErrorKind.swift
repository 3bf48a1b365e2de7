extension UsageError {
  /// What is wrong with a command line, so callers decide by kind and never by message text.
  public enum Kind: Sendable, Equatable {
    /// A word that names no subcommand: `Unknown command 'x'`.
    case unknownCommand
    /// An option the command does not declare: `Unknown option '--foo'`.
    case unknownOption
    /// A valued option without its value: `Missing value for '--name <name>'`.
    case missingValue
    /// A flag given a value: `The option '--json' does not take any value, …`.
    case unexpectedValue
    /// A value the option or argument does not accept:
    /// `The value 'huge' is invalid for '--paw <paw>'…`.
    case invalidValue
    /// A required positional or option left out: `Missing expected argument '<animal>'`.
    case missingArgument
    /// Positionals beyond the declared ones: `Unexpected argument 'x'`.
    case unexpectedArgument
    /// A single-valued option given more than once (under any of its names):
    /// `The option '--name <name>' may be given only once, but was given 'A' and 'B'`.
    case repeatedOption
    /// Options or arguments that do not go together, found by a command's validation:
    /// `Give either --limit or --all, not both`.
    case conflict
  }
}
