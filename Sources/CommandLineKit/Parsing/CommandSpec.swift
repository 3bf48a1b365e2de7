/// The declaration of a command or a group of commands: what it is called, what it
/// accepts and how its help reads.
///
/// A tree of these describes the whole command line. The root is the program
/// itself (name "inspector"); its ``options`` are the global options, accepted
/// anywhere on the line, before or after the subcommand path (docs/command-line.md
/// "Global options"). A spec with ``subcommands`` is a group: it takes no positionals,
/// and invoking it without a subcommand is a usage error that prints its help on
/// stderr (exit 64); the root alone prints its help on stdout (exit 0).
public struct CommandSpec: Sendable, Equatable {
  // MARK: - Properties

  /// The word typed to select the command ("add"), or the program name for the root.
  public var name: String
  /// One sentence, shown after `OVERVIEW:` and in the parent's `SUBCOMMANDS:`.
  public var abstract: String
  /// Optional paragraphs shown in help after the overview.
  public var discussion: String?
  /// Positional arguments, in order. Ignored for groups.
  public var arguments: [ArgumentSpec]
  /// Options of this command; on the root, the global options.
  public var options: [OptionSpec]
  /// Subcommands, in the order help lists them; empty for a leaf command.
  public var subcommands: [CommandSpec]
  /// The text `--version` prints; only read on the root, where a non-nil value
  /// enables `--version`.
  public var version: String?

  // MARK: - Init

  /// Creates a command or group declaration.
  ///
  /// - Parameters:
  ///   - name: The command word, or the program name for the root.
  ///   - abstract: One-sentence summary.
  ///   - discussion: Optional longer help text.
  ///   - arguments: Positional arguments of a leaf command.
  ///   - options: The command's own options (global ones when this is the root).
  ///   - subcommands: Children; non-empty makes this a group.
  ///   - version: Root only: what `--version` prints.
  public init(
    name: String, abstract: String, discussion: String? = nil, arguments: [ArgumentSpec] = [],
    options: [OptionSpec] = [], subcommands: [CommandSpec] = [], version: String? = nil
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments
    self.options = options
    self.subcommands = subcommands
    self.version = version
  }

  // MARK: - Public API

  /// Whether this command runs by itself as well as having subcommands (`history` and
  /// `history prune`): a first positional word that names a subcommand selects it, any other
  /// is the command's own argument.
  public var runsItself = false

  /// Whether this spec is a group (has subcommands and does not run by itself).
  public var isGroup: Bool { !subcommands.isEmpty && !runsItself }

  /// The direct subcommand called `name`, if any.
  ///
  /// - Parameter name: The command word, matched exactly.
  /// - Returns: The subcommand, or `nil`.
  public func subcommand(named name: String) -> CommandSpec? {
    subcommands.first { $0.name == name }
  }
}
