/// A small hand-written command-line parser following swift-argument-parser's conventions.
///
/// See docs/command-line.md "Global options" and "Options given twice". The rules:
///
/// - `--opt value` and `--opt=value`; `-x value` for declared short aliases.
/// - Options of the root ``CommandSpec`` are global and accepted anywhere
///   (`inspector --db x list --json` and `inspector list --json --db x`); a
///   command's own options are accepted after its name.
/// - `--` ends options: everything after it is positional
///   (`inspector alibi fish -- --weird text`). A lone `-` is a positional.
/// - A token that parses as a negative number (`-0.5`, `-122.009558`, `-.5`)
///   is a value, never an option, both as an option's value and as a positional.
/// - A valued option's value is the next token unless that token looks like an
///   option; `--name --json` is `Missing value for '--name <name>'`. Use
///   `--name=--json` to pass such a value.
/// - A single-valued option may be given once (under either of its names); a second time is a
///   usage error, even with the same value. A repeatable option
///   (``OptionSpec/Kind/repeatingValue``) keeps every value; a flag given twice is the same as
///   once.
/// - `-h`/`--help` anywhere before `--` asks for help on the deepest command
///   named, even if the rest of the line has errors; so does
///   `inspector help animal add`. `help` is the built-in ``helpCommand`` of the root, as in
///   swift-argument-parser: `inspector help` is `inspector --help`, and `inspector help --help`
///   (or `inspector help help`) prints the help of `help` itself. `--version` works on the root
///   only.
/// - A group named without a subcommand (`inspector animal`) is a usage error:
///   its help, after an error line, to print on stderr with exit 64. The root
///   alone (`inspector`) yields its help, to print on stdout with exit 0.
/// - Unknown options and commands, at every level, get a "Did you mean …?" hint
///   when one declared name is within edit distance max(1, length / 3), a
///   stricter bound than swift-argument-parser's so `--foo` gets no hint; two
///   neighbouring letters swapped count as one edit, so `lsit` suggests `list`.
public struct ArgumentParser: Sendable {
  /// What the command line asks for.
  public enum Outcome: Sendable, Equatable {
    /// Run a leaf command with these values.
    case run(ParsedArguments)
    /// Print `text` (the help of the command at `commandPath`) on stdout, exit 0.
    case help(commandPath: [String], text: String)
    /// Print `text` (the root's ``CommandSpec/version``) on stdout, exit 0.
    case version(String)
    /// A group named without a subcommand: print `text` (an error line, then the group's
    /// help) on stderr, exit 64.
    case missingSubcommand(commandPath: [String], text: String)
  }

  // MARK: - Properties

  /// The built-in `help` command of the root (`inspector help animal add`): not part of the
  /// tree the program declares, but listed in the root's help, completed and documented like
  /// its commands. Its help is shown for the path `["help"]`.
  public static let helpCommand = CommandSpec(
    name: "help", abstract: "Show subcommand help information.",
    arguments: [
      ArgumentSpec(
        "subcommands", help: "The command to show the help of, such as 'animal add'.",
        isOptional: true, isRepeating: true)
    ])

  /// The program's command tree; its options are the global options.
  public let root: CommandSpec
  /// The width in terminal columns help text is wrapped to: the terminal's when stdout is one,
  /// else 80 (``HelpWrapping``).
  public var helpWidth = HelpWrapping.defaultWidth

  // MARK: - Init

  /// Creates a parser for a command tree.
  ///
  /// - Parameter root: The program's spec, named after the program ("inspector").
  public init(root: CommandSpec) {
    self.root = root
  }

  // MARK: - Public API

  /// Parses a command line.
  ///
  /// - Parameter arguments: The arguments without the program name
  ///   (`CommandLine.arguments.dropFirst()`).
  /// - Returns: The command to run, or a request for help or the version.
  /// - Throws: ``UsageError`` for an unknown option or command, a missing or
  ///   disallowed value, a missing required argument or option, or extra
  ///   positionals.
  public func parse(_ arguments: [String]) throws(UsageError) -> Outcome {
    var state = State(command: root)
    let endOfOptions = arguments.firstIndex(of: "--") ?? arguments.endIndex
    let helpFlag = arguments[..<endOfOptions].contains { $0 == "-h" || $0 == "--help" }
    state.helpRequested = helpFlag
    do {
      if let version = try scan(arguments, into: &state) {
        return .version(version)
      }
    } catch {
      // Help for a command that does not exist (`inspector help nosuch`) is still an error.
      if state.helpRequested && error.kind != .unknownCommand {
        return help(state.path)
      }
      throw error
    }
    // `inspector help --help`: the help of `help` itself.
    if state.helpNamed && helpFlag && state.path.isEmpty { return help([Self.helpCommand.name]) }
    if state.helpRequested || (state.command.isGroup && state.path.isEmpty) {
      return help(state.path)
    }
    if state.command.isGroup { return missingSubcommand(state.path, state.command) }
    return .run(try resolve(state))
  }

  /// The spec of the command at `commandPath`, or `nil` if no such command exists.
  ///
  /// - Parameter commandPath: Subcommand words from the root; empty for the root.
  /// - Returns: The spec.
  public func command(at commandPath: [String]) -> CommandSpec? {
    var command = root
    for word in commandPath {
      guard let next = command.subcommand(named: word) else { return nil }
      command = next
    }
    return command
  }

  /// Makes a ``UsageError`` for the command at `commandPath`, with its usage line,
  /// for checks the parser cannot declare (such as `--sleep` without `--wake`).
  ///
  /// - Parameters:
  ///   - message: The problem, in argument-parser's voice.
  ///   - kind: What kind of problem it is; defaults to a conflict between options.
  ///   - commandPath: The command's subcommand words.
  /// - Returns: The error, ready to render.
  public func usageError(
    _ message: String, kind: UsageError.Kind = .conflict, commandPath: [String]
  ) -> UsageError {
    UsageError(
      kind: kind, message: message, programName: root.name, commandPath: commandPath,
      usage: usageLine(for: commandPath))
  }

  /// Makes the ``UsageError`` for a value a command rejects after parsing, such
  /// as a non-numeric `--limit`: `The value 'abc' is invalid for '--limit <n>'`.
  ///
  /// - Parameters:
  ///   - value: The value as given.
  ///   - name: The option's long name, or a positional argument's name.
  ///   - commandPath: The command's subcommand words.
  ///   - reason: Optional explanation appended after ": ".
  /// - Returns: The error, ready to render.
  public func invalidValue(
    _ value: String, for name: String, commandPath: [String], reason: String? = nil
  ) -> UsageError {
    let command = self.command(at: commandPath) ?? root
    let label: String
    if let option = (command.options + root.options).first(where: { $0.name == name }) {
      label = option.synopsis
    } else {
      label = "<\(name)>"
    }
    return invalidValue(value, label: label, commandPath: commandPath, reason: reason)
  }

  /// Makes the ``UsageError`` for a value its declared type rejects, naming the option or
  /// argument as written in usage: `The value 'abc' is invalid for '--limit <n>': reason`.
  ///
  /// - Parameters:
  ///   - value: The value as given.
  ///   - label: The option's synopsis (`--limit <n>`) or the argument's `<name>`.
  ///   - commandPath: The command's subcommand words.
  ///   - reason: Optional explanation appended after ": ".
  /// - Returns: The error, ready to render.
  public func invalidValue(
    _ value: String, label: String, commandPath: [String], reason: String? = nil
  ) -> UsageError {
    let suffix = reason.map { ": \($0)" } ?? ""
    return usageError(
      "The value '\(value)' is invalid for '\(label)'\(suffix)", kind: .invalidValue,
      commandPath: commandPath)
  }

  // MARK: - Private helpers

  private struct State {
    var command: CommandSpec
    var path: [String] = []
    var positionals: [String] = []
    var optionValues: [String: [String]] = [:]
    var flags: Set<String> = []
    var helpRequested = false
    /// Whether the line named the built-in `help` command (`inspector help ...`).
    var helpNamed = false
  }

  /// Walks the tokens; returns the version text when `--version` ends parsing early.
  private func scan(_ arguments: [String], into state: inout State) throws(UsageError) -> String? {
    var index = arguments.startIndex
    var onlyPositionals = false
    while index < arguments.endIndex {
      let token = arguments[index]
      index += 1
      if onlyPositionals || !Self.looksLikeOption(token) {
        try acceptPositional(token, into: &state)
        continue
      }
      if token == "--" {
        onlyPositionals = true
        continue
      }
      if token == "-h" || token == "--help" { continue }
      if token == "--version", state.path.isEmpty, !state.helpRequested,
        let version = root.version
      {
        return version
      }
      let (name, inlineValue) = Self.split(token)
      guard let option = lookup(name, in: state.command) else {
        throw unknownOption(name, state: state)
      }
      guard option.kind != .flag else {
        if let inlineValue {
          throw usageError(
            "The option '--\(option.name)' does not take any value, "
              + "but '\(inlineValue)' was specified.",
            kind: .unexpectedValue, commandPath: state.path)
        }
        state.flags.insert(option.name)
        continue
      }
      var value: String
      if let inlineValue {
        value = inlineValue
      } else if index < arguments.endIndex, !Self.looksLikeOption(arguments[index]),
        arguments[index] != "--"
      {
        value = arguments[index]
        index += 1
      } else {
        throw usageError(
          "Missing value for '\(option.synopsis)'", kind: .missingValue, commandPath: state.path)
      }
      // Enumerated values match in any letter case and are passed on as declared (`LARGE` is
      // `large`).
      if let declared = option.allowedValues.first(where: { $0.lowercased() == value.lowercased() })
      {
        value = declared
      }
      if !option.allowedValues.isEmpty, !option.allowedValues.contains(value) {
        throw usageError(
          Self.invalidValueMessage(value, label: option.synopsis, allowed: option.allowedValues),
          kind: .invalidValue, commandPath: state.path)
      }
      // One value would silently replace the other: `--db a --db b` must not pick a file.
      if option.kind == .value, let earlier = state.optionValues[option.name]?.first {
        throw usageError(
          "The option '\(option.synopsis)' may be given only once, but was given '\(earlier)'"
            + " and '\(value)'", kind: .repeatedOption, commandPath: state.path)
      }
      state.optionValues[option.name, default: []].append(value)
    }
    return nil
  }

  private func acceptPositional(_ token: String, into state: inout State) throws(UsageError) {
    if state.command.runsItself, state.positionals.isEmpty,
      let subcommand = state.command.subcommand(named: token)
    {
      state.command = subcommand
      state.path.append(token)
      return
    }
    guard state.command.isGroup else {
      state.positionals.append(token)
      return
    }
    if let subcommand = state.command.subcommand(named: token) {
      state.command = subcommand
      state.path.append(token)
    } else if token == Self.helpCommand.name, state.path.isEmpty, !state.helpNamed {
      state.helpNamed = true
      state.helpRequested = true
    } else if token == Self.helpCommand.name, state.path.isEmpty {
      // `inspector help help`: the help of `help` itself.
      state.command = Self.helpCommand
      state.path = [token]
    } else {
      var names = state.command.subcommands.map(\.name)
      if state.path.isEmpty { names.append(Self.helpCommand.name) }
      throw usageError(
        "Unknown command '\(token)'" + Self.suggestion(for: token, among: names, prefix: ""),
        kind: .unknownCommand, commandPath: state.path)
    }
  }

  /// Finds an option by "--long" or "-s" in the command, then among the globals.
  private func lookup(_ name: String, in command: CommandSpec) -> OptionSpec? {
    let matches: (OptionSpec) -> Bool
    if name.hasPrefix("--") {
      let long = name.dropFirst(2)
      matches = { $0.name == long }
    } else {
      let short = name.dropFirst()
      matches = { short.count == 1 && $0.shortName == short.first }
    }
    return command.options.first(where: matches) ?? root.options.first(where: matches)
  }

  private func unknownOption(_ name: String, state: State) -> UsageError {
    var hint = ""
    if name.hasPrefix("--") {
      let names = (state.command.options + root.options).map(\.name) + ["help"]
      hint = Self.suggestion(for: String(name.dropFirst(2)), among: names, prefix: "--")
    }
    return usageError(
      "Unknown option '\(name)'" + hint, kind: .unknownOption, commandPath: state.path)
  }

  /// Assigns positionals to declared arguments and checks required options.
  private func resolve(_ state: State) throws(UsageError) -> ParsedArguments {
    var remaining = state.positionals[...]
    var argumentValues: [String: [String]] = [:]
    for argument in state.command.arguments {
      var values: [String] = []
      if argument.isRepeating {
        values = Array(remaining)
        remaining = []
      } else if let first = remaining.first {
        values = [first]
        remaining = remaining.dropFirst()
      }
      if values.isEmpty && !argument.isOptional {
        throw usageError(
          "Missing expected argument '<\(argument.name)>'", kind: .missingArgument,
          commandPath: state.path)
      }
      if !argument.allowedValues.isEmpty,
        let bad = values.first(where: { !argument.allowedValues.contains($0) })
      {
        throw usageError(
          Self.invalidValueMessage(
            bad, label: "<\(argument.name)>", allowed: argument.allowedValues),
          kind: .invalidValue, commandPath: state.path)
      }
      if !values.isEmpty { argumentValues[argument.name] = values }
    }
    switch remaining.count {
    case 0: break
    case 1:
      throw usageError(
        "Unexpected argument '\(remaining.first!)'", kind: .unexpectedArgument,
        commandPath: state.path)
    default:
      let list = remaining.joined(separator: "', '")
      throw usageError(
        "\(remaining.count) unexpected arguments: '\(list)'", kind: .unexpectedArgument,
        commandPath: state.path)
    }
    for option in state.command.options
    where option.isRequired && state.optionValues[option.name] == nil {
      throw usageError(
        "Missing expected argument '\(option.synopsis)'", kind: .missingArgument,
        commandPath: state.path)
    }
    return ParsedArguments(
      commandPath: state.path, positionals: state.positionals, optionValues: state.optionValues,
      flags: state.flags, argumentValues: argumentValues)
  }

  private func help(_ path: [String]) -> Outcome {
    .help(commandPath: path, text: helpText(for: path))
  }

  /// `inspector: error: 'inspector animal' needs a subcommand (add, edit or remove)`, a blank
  /// line, and the group's help.
  private func missingSubcommand(_ path: [String], _ group: CommandSpec) -> Outcome {
    let names = group.subcommands.map(\.name)
    let list =
      names.count <= 2
      ? names.joined(separator: " or ")
      : names.dropLast().joined(separator: ", ") + " or " + names.last!
    let command = ([root.name] + path).joined(separator: " ")
    let text =
      "\(root.name): error: '\(command)' needs a subcommand (\(list))\n\n"
      + helpText(for: path)
    return .missingSubcommand(commandPath: path, text: text)
  }

  /// Whether a token is an option: starts with "-", is not "-" alone and is not a number.
  static func looksLikeOption(_ token: String) -> Bool {
    guard token.hasPrefix("-"), token.utf8.count > 1 else { return false }
    return !isNegativeNumber(token)
  }

  /// "-0.5", "-122.009558", "-.5", "-3", "-1e3"; not "-inf", "-nan" or "-x".
  static func isNegativeNumber(_ token: String) -> Bool {
    let utf8 = token.utf8
    guard utf8.count > 1, utf8.first == UInt8(ascii: "-") else { return false }
    let second = utf8[utf8.index(after: utf8.startIndex)]
    guard second == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(second)
    else { return false }
    return Double(token) != nil
  }

  /// Splits "--name=value" into ("--name", "value"); other tokens have no inline value.
  private static func split(_ token: String) -> (name: String, value: String?) {
    guard token.hasPrefix("--"), let equals = token.firstIndex(of: "=") else {
      return (token, nil)
    }
    return (String(token[..<equals]), String(token[token.index(after: equals)...]))
  }

  static func invalidValueMessage(_ value: String, label: String, allowed: [String]) -> String {
    let quoted = allowed.map { "'\($0)'" }
    let list: String
    if quoted.count <= 2 {
      list = quoted.joined(separator: " and ")
    } else {
      list = quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    }
    return "The value '\(value)' is invalid for '\(label)'. Please provide one of \(list)."
  }

  /// ". Did you mean '<prefix><name>'?" for the closest name within max(1, length / 3) edits.
  private static func suggestion(for word: String, among names: [String], prefix: String)
    -> String
  {
    let typed = Array(word)
    var best: (name: String, distance: Int)?
    for name in names {
      let distance = editDistance(typed, Array(name))
      guard distance <= max(1, min(typed.count, name.count) / 3) else { continue }
      if best == nil || distance < best!.distance { best = (name, distance) }
    }
    return best.map { ". Did you mean '\(prefix)\($0.name)'?" } ?? ""
  }

  /// Edits (insert, delete, substitute, or swap two neighbouring characters) that turn `a`
  /// into `b`: the optimal string alignment distance, so `lsit` is one edit from `list`.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
  }
}
