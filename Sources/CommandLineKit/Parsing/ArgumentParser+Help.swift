// Help and usage text in swift-argument-parser's layout .

extension ArgumentParser {
  // MARK: - Public API

  /// The usage synopsis of a command, without the `USAGE: ` prefix.
  ///
  /// A group reads `inspector animal <subcommand>`. A leaf command lists its
  /// positionals, its own options, then the global options, each as
  /// argument-parser writes them: `<animal>`, `[<text>]`, `--name <name>`
  /// (required), `[--emoji <emoji>]`, `[--fruit <fruit> ...]`, `[--json]`.
  /// With more than 12 options, the optional ones collapse into `[<options>]`.
  ///
  /// - Parameter commandPath: Subcommand words from the root; an unknown path
  ///   falls back to the deepest known command.
  /// - Returns: The synopsis, starting with the program name.
  public func usageLine(for commandPath: [String]) -> String {
    let (command, path) = deepestCommand(commandPath)
    let prefix = ([root.name] + path).joined(separator: " ")
    if command.isGroup { return prefix + " <subcommand>" }
    let options = ownAndGlobalOptions(command, path)
    let arguments = command.arguments.map(\.synopsis)
    let optionItems: [String]
    if options.count > 12 {
      let required = options.filter(\.isRequired).map(Self.optionSynopsis)
      optionItems = required + ["[<options>]"]
    } else {
      optionItems = options.map(Self.optionSynopsis)
    }
    return ([prefix] + arguments + optionItems).joined(separator: " ")
  }

  /// The full help of a command, as `-h`/`--help` prints it (stdout, exit 0).
  ///
  /// Sections, separated by blank lines: `OVERVIEW: <abstract>`, the
  /// discussion if any, `USAGE: <usage>`, `ARGUMENTS:` (leaf commands with
  /// positionals), `OPTIONS:` (own options, then global options, `--version`
  /// on the root, then `-h, --help`), and `SUBCOMMANDS:` for groups (the root's ending with the
  /// built-in `help`) followed by
  /// a "See 'inspector help <subcommand>' for detailed help." line. Entries are
  /// indented two spaces with their help at column 26, or on the next line
  /// when the label is too long; everything is wrapped to ``helpWidth`` columns. Allowed values are appended as
  /// `(values: a, b, c)`. No trailing newline.
  ///
  /// - Parameter commandPath: Subcommand words from the root; an unknown path
  ///   falls back to the deepest known command.
  /// - Returns: The help text.
  public func helpText(for commandPath: [String]) -> String {
    let (command, path) = deepestCommand(commandPath)
    var sections: [String] = []
    let width = max(helpWidth, HelpWrapping.minimumWidth)
    if !command.abstract.isEmpty {
      sections.append(HelpWrapping.paragraphs("OVERVIEW: \(command.abstract)", width: width))
    }
    if let discussion = command.discussion, !discussion.isEmpty {
      sections.append(HelpWrapping.paragraphs(discussion, width: width))
    }
    // Continuation lines line up under the first item, after "USAGE: ".
    let usage = HelpWrapping.lines(
      words: HelpWrapping.usageItems(usageLine(for: path)), width: width - 7)
    sections.append("USAGE: " + usage.joined(separator: "\n       "))

    if !command.isGroup && !command.arguments.isEmpty {
      let entries = command.arguments.map { argument in
        let label = "<\(argument.name)>" + (argument.isRepeating ? " ..." : "")
        return entry(label, Self.withValues(argument.help, argument.allowedValues))
      }
      sections.append((["ARGUMENTS:"] + entries).joined(separator: "\n"))
    }

    var optionEntries: [String] = []
    for option in ownAndGlobalOptions(command, path) {
      var label = option.shortName.map { "-\($0), " } ?? ""
      label += option.synopsis
      optionEntries.append(entry(label, Self.withValues(option.help, option.allowedValues)))
    }
    if path.isEmpty && root.version != nil {
      optionEntries.append(entry("--version", "Show the version."))
    }
    optionEntries.append(entry("-h, --help", "Show help information."))
    sections.append((["OPTIONS:"] + optionEntries).joined(separator: "\n"))

    if !command.subcommands.isEmpty {
      var entries = command.subcommands.map { entry($0.name, $0.abstract) }
      if path.isEmpty { entries.append(entry(Self.helpCommand.name, Self.helpCommand.abstract)) }
      let helpPath = ([root.name, "help"] + path).joined(separator: " ")
      sections.append((["SUBCOMMANDS:"] + entries).joined(separator: "\n"))
      sections.append("  See '\(helpPath) <subcommand>' for detailed help.")
    }
    return sections.joined(separator: "\n\n")
  }

  // MARK: - Private helpers

  /// The column where help text starts, as in argument-parser's `HelpGenerator`.
  private static var helpColumn: Int { 26 }

  /// One entry: the label indented two spaces, its help from column 26 (or on the next line
  /// when the label is too long), wrapped to ``helpWidth`` with continuation lines at column 26.
  private func entry(_ label: String, _ help: String) -> String {
    let padded = "  " + label
    guard !help.isEmpty else { return padded }
    let indent = String(repeating: " ", count: Self.helpColumn)
    let available = max(helpWidth, HelpWrapping.minimumWidth) - Self.helpColumn
    let body = HelpWrapping.lines(help, width: available).joined(separator: "\n" + indent)
    let width = displayWidth(of: padded)
    if width < Self.helpColumn {
      return padded + String(repeating: " ", count: Self.helpColumn - width) + body
    }
    return padded + "\n" + indent + body
  }

  private static func withValues(_ help: String, _ values: [String]) -> String {
    guard !values.isEmpty else { return help }
    let list = "(values: \(values.joined(separator: ", ")))"
    return help.isEmpty ? list : "\(help) \(list)"
  }

  private static func optionSynopsis(_ option: OptionSpec) -> String {
    var text = option.synopsis
    if option.kind == .repeatingValue { text += " ..." }
    return option.isRequired ? text : "[\(text)]"
  }

  /// The options help and usage list for a command: the root's (the global ones), a command's
  /// own then the global ones, or none for the built-in ``helpCommand``.
  private func ownAndGlobalOptions(_ command: CommandSpec, _ path: [String]) -> [OptionSpec] {
    if path.isEmpty { return root.options }
    if isBuiltInHelp(path) { return [] }
    return command.options + root.options
  }

  /// Whether `path` names the built-in ``helpCommand`` rather than a declared command.
  private func isBuiltInHelp(_ path: [String]) -> Bool {
    path == [Self.helpCommand.name] && root.subcommand(named: Self.helpCommand.name) == nil
  }

  /// Follows `commandPath` as far as it names real subcommands (or the built-in `help`).
  private func deepestCommand(_ commandPath: [String]) -> (CommandSpec, [String]) {
    if isBuiltInHelp(Array(commandPath.prefix(1))) { return (Self.helpCommand, ["help"]) }
    var command = root
    var path: [String] = []
    for word in commandPath {
      guard let next = command.subcommand(named: word) else { break }
      command = next
      path.append(word)
    }
    return (command, path)
  }
}
