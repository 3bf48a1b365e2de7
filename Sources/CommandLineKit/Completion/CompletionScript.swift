/// A shell completion script for `inspector`, generated from its command tree so that it
/// never falls out of step with the commands: `inspector completions bash|zsh|fish` prints it
/// and `scripts/install.sh` installs it where each shell looks.
///
/// Every script completes the same things: the commands and subcommands (and `help` at the
/// top level), each command's options and the global ones anywhere on the line (`-h`/`--help`
/// everywhere, `--version` at the top level), the allowed values of an option or argument
/// (`--paw`, `--format`, `--verify`, the shells), and file names for values declared as file
/// paths (``CompletionKind/file``: `--db`, `backup`'s `<dest>`, `restore`'s `<src>`). Free
/// text (a suspect, a level, SQL) completes nothing. `--option=value` completes like
/// `--option value`, and `--` ends the options as it does for the parser.
public struct CompletionScript: Sendable {
  // MARK: - Properties

  /// One command of the tree, with what the scripts need of it.
  struct Command: Sendable {
    /// Its subcommand words from the root; empty for the root.
    var path: [String]
    /// Its declaration.
    var spec: CommandSpec
    /// Its own options, then the global ones and the built-in `--version` (root only) and
    /// `-h`/`--help`.
    var options: [OptionSpec]

    /// The words of ``path`` joined by spaces ("animal add"; "" for the root).
    var key: String { path.joined(separator: " ") }
  }

  /// The program name the script completes ("inspector").
  let programName: String
  /// Every command of the tree, depth first, the root first.
  let commands: [Command]

  // MARK: - Init

  /// Collects the commands of a tree.
  ///
  /// - Parameter root: The program's spec; its options are the global options.
  public init(root: CommandSpec) {
    programName = root.name
    let help = OptionSpec.flag("help", short: "h", help: "Show help information.")
    var collected: [Command] = []
    func visit(_ spec: CommandSpec, path: [String]) {
      var options = path.isEmpty ? root.options : spec.options + root.options
      if path.isEmpty && root.version != nil {
        options.append(.flag("version", help: "Show the version."))
      }
      options.append(help)
      collected.append(Command(path: path, spec: spec, options: options))
      for subcommand in spec.subcommands { visit(subcommand, path: path + [subcommand.name]) }
    }
    visit(root, path: [])
    commands = collected
  }

  // MARK: - Public API

  /// The script for `shell`.
  ///
  /// - Parameter shell: The shell that will load it.
  /// - Returns: The whole script, ending with a newline.
  public func script(for shell: CompletionShell) -> String {
    switch shell {
    case .bash: return bash
    case .zsh: return zsh
    case .fish: return fish
    }
  }

  // MARK: - Helpers shared by the shells

  /// The top level's subcommands as completed: the tree's, then `help`.
  func subcommandNames(of command: Command) -> [String] {
    var names = command.spec.subcommands.map(\.name)
    if command.path.isEmpty && !names.isEmpty { names.append(ArgumentParser.helpCommand.name) }
    return names
  }

  /// `text` in single quotes for sh, bash and zsh: `it's` becomes `'it'\''s'`.
  public static func singleQuoted(_ text: String) -> String {
    "'" + text.replacingAll("'", with: "'\\''") + "'"
  }

  /// Help text on one line, for a description shown beside a completion.
  static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces }.joined(separator: " ")
  }
}

extension Substring {
  fileprivate var trimmingSpaces: Substring {
    var text = self
    while text.first == " " { text = text.dropFirst() }
    while text.last == " " { text = text.dropLast() }
    return text
  }
}
