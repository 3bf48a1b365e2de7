/// The declaration of one named option of a command: a flag, a valued option or a
/// repeatable valued option.
///
/// Names are long names without the leading dashes ("db" for `--db`). Options
/// declared on the root ``CommandSpec`` are global: accepted before or after
/// the subcommand path (docs/command-line.md "Global options"). `-h`/`--help` and `--version` are
/// built in; do not declare them.
public struct OptionSpec: Sendable, Equatable {
  /// What an option takes.
  public enum Kind: Sendable, Equatable {
    /// No value: `--json`. Giving it twice is the same as once.
    case flag
    /// One value: `--db <path>` or `--db=<path>`; giving it twice is a usage error
    /// (``UsageError/Kind/repeatedOption``).
    case value
    /// One value per occurrence, all kept in order: `--fruit apple --fruit pear`.
    case repeatingValue
  }

  // MARK: - Properties

  /// The long name without dashes, such as "busy-timeout"; also the key for
  /// ``ParsedArguments/option(_:)`` and ``ParsedArguments/flag(_:)``.
  public var name: String
  /// An optional one-letter alias, used as `-n value` (no `-n=value`, no bundling).
  public var shortName: Character?
  /// Flag, single value or repeatable value.
  public var kind: Kind
  /// The placeholder shown in usage and help, without angle brackets ("path"
  /// for `--db <path>`); empty for flags.
  public var valueName: String
  /// One line of help text shown in `OPTIONS:`.
  public var help: String
  /// Whether leaving the option out is a usage error
  /// (`Missing expected argument '--name <name>'`). Ignored for flags and for
  /// global options.
  public var isRequired: Bool
  /// The only values accepted, in the order listed in help and errors; empty
  /// accepts any value.
  public var allowedValues: [String]
  /// What shell completion offers for the value besides ``allowedValues``; `.none` for flags.
  public var completion: CompletionKind

  // MARK: - Init

  /// Creates an option declaration; prefer ``flag(_:short:help:)``,
  /// ``option(_:short:valueName:help:isRequired:allowedValues:completion:)`` and
  /// ``repeatingOption(_:short:valueName:help:allowedValues:completion:)``.
  ///
  /// - Parameters:
  ///   - name: Long name without dashes.
  ///   - shortName: Optional one-letter alias.
  ///   - kind: Flag, value or repeating value.
  ///   - valueName: Placeholder for the value; defaults to `name`.
  ///   - help: One line of help.
  ///   - isRequired: Whether the option must be given.
  ///   - allowedValues: Accepted values, or empty for any.
  ///   - completion: What shell completion offers for the value (file paths or nothing).
  public init(
    name: String, shortName: Character? = nil, kind: Kind, valueName: String? = nil,
    help: String, isRequired: Bool = false, allowedValues: [String] = [],
    completion: CompletionKind = .none
  ) {
    self.name = name
    self.shortName = shortName
    self.kind = kind
    self.valueName = kind == .flag ? "" : (valueName ?? name)
    self.help = help
    self.isRequired = kind == .flag ? false : isRequired
    self.allowedValues = allowedValues
    self.completion = kind == .flag ? .none : completion
  }

  // MARK: - Public API

  /// Declares a flag such as `--json`.
  ///
  /// - Parameters:
  ///   - name: Long name without dashes.
  ///   - short: Optional one-letter alias.
  ///   - help: One line of help.
  /// - Returns: The declaration.
  public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(name: name, shortName: short, kind: .flag, help: help)
  }

  /// Declares an option taking one value, such as `--db <path>`.
  ///
  /// - Parameters:
  ///   - name: Long name without dashes.
  ///   - short: Optional one-letter alias.
  ///   - valueName: Placeholder in usage and help; defaults to `name`.
  ///   - help: One line of help.
  ///   - isRequired: Whether leaving it out is a usage error.
  ///   - allowedValues: Accepted values (`["table", "json", "csv"]`), or empty for any.
  ///   - completion: What shell completion offers for the value (file paths or nothing).
  /// - Returns: The declaration.
  public static func option(
    _ name: String, short: Character? = nil, valueName: String? = nil, help: String,
    isRequired: Bool = false, allowedValues: [String] = [], completion: CompletionKind = .none
  ) -> OptionSpec {
    OptionSpec(
      name: name, shortName: short, kind: .value, valueName: valueName, help: help,
      isRequired: isRequired, allowedValues: allowedValues, completion: completion)
  }

  /// Declares a repeatable option, such as `--fruit <fruit>` given any number of times.
  ///
  /// - Parameters:
  ///   - name: Long name without dashes.
  ///   - short: Optional one-letter alias.
  ///   - valueName: Placeholder in usage and help; defaults to `name`.
  ///   - help: One line of help.
  ///   - allowedValues: Accepted values, or empty for any.
  ///   - completion: What shell completion offers for the value (file paths or nothing).
  /// - Returns: The declaration.
  public static func repeatingOption(
    _ name: String, short: Character? = nil, valueName: String? = nil, help: String,
    allowedValues: [String] = [], completion: CompletionKind = .none
  ) -> OptionSpec {
    OptionSpec(
      name: name, shortName: short, kind: .repeatingValue, valueName: valueName, help: help,
      allowedValues: allowedValues, completion: completion)
  }

  /// The option as written in errors and help: `--db <path>`, or `--json` for a flag.
  public var synopsis: String {
    kind == .flag ? "--\(name)" : "--\(name) <\(valueName)>"
  }
}
