/// Finds mistakes in a command tree that the parser would only meet when a user types the
/// command: duplicate option names (long or short, a command's own against the global ones),
/// a positional after a repeating one, an optional positional before a required one, missing
/// help text, groups that take positionals, a value named as a file (`<file>`,
/// `--output <path>`) for which shells would not complete file names, and a declared `help`
/// command at the top level (the parser's built-in `help` would hide it).
public enum CommandTreeChecker {
  /// Every problem in the tree, one line each, naming the command; empty when it is sound.
  public static func problems(in root: CommandSpec) -> [String] {
    var problems: [String] = []
    check(root, path: [root.name], globals: [], problems: &problems)
    return problems
  }

  private static func check(
    _ command: CommandSpec, path: [String], globals: [OptionSpec], problems: inout [String]
  ) {
    let name = path.joined(separator: " ")
    if isBlank(command.abstract) { problems.append("\(name): no abstract") }
    let options = globals + command.options
    for duplicate in duplicates(options.map(\.name) + ["help", "version"]) {
      problems.append("\(name): option --\(duplicate) is declared twice")
    }
    for duplicate in duplicates(options.compactMap(\.shortName).map(String.init) + ["h"]) {
      problems.append("\(name): short name -\(duplicate) is declared twice")
    }
    for option in command.options {
      if isBlank(option.help) { problems.append("\(name): --\(option.name) has no help") }
      if option.kind != .flag, namesAFile(option.name) || namesAFile(option.valueName),
        option.completion != .file
      {
        problems.append("\(name): --\(option.name) takes a file but completes no file names")
      }
      if option.kind != .flag && isBlank(option.valueName) {
        problems.append("\(name): --\(option.name) has no value name")
      }
    }
    for duplicate in duplicates(command.arguments.map(\.name)) {
      problems.append("\(name): argument <\(duplicate)> is declared twice")
    }
    for (index, argument) in command.arguments.enumerated() {
      if isBlank(argument.help) { problems.append("\(name): <\(argument.name)> has no help") }
      if namesAFile(argument.name), argument.completion != .file {
        problems.append("\(name): <\(argument.name)> is a file but completes no file names")
      }
      let later = command.arguments.dropFirst(index + 1)
      if argument.isRepeating, let next = later.first {
        problems.append(
          "\(name): <\(next.name)> follows the repeating <\(argument.name)> and never gets a value")
      }
      if argument.isOptional, let required = later.first(where: { !$0.isOptional }) {
        problems.append(
          "\(name): required <\(required.name)> follows the optional <\(argument.name)>")
      }
    }
    if command.isGroup && !command.arguments.isEmpty {
      problems.append("\(name): a group takes no positionals")
    }
    if path.count == 1, command.subcommand(named: ArgumentParser.helpCommand.name) != nil {
      problems.append("\(name): subcommand help is built in")
    }
    for duplicate in duplicates(command.subcommands.map(\.name)) {
      problems.append("\(name): subcommand \(duplicate) is declared twice")
    }
    let childGlobals = path.count == 1 ? command.options : globals
    for subcommand in command.subcommands {
      check(subcommand, path: path + [subcommand.name], globals: childGlobals, problems: &problems)
    }
  }

  private static func duplicates(_ names: [String]) -> [String] {
    var seen = Set<String>()
    var repeated: [String] = []
    for name in names where !seen.insert(name).inserted && !repeated.contains(name) {
      repeated.append(name)
    }
    return repeated
  }

  /// Whether a value's name says it is a file path: `file`, `path`, `dest`, `src`.
  private static func namesAFile(_ name: String) -> Bool {
    ["file", "path", "dest", "src"].contains(name)
  }

  private static func isBlank(_ text: String) -> Bool {
    text.allSatisfy(\.isWhitespace)
  }

  /// The paths of the tree's leaf commands, depth first.
  public static func leafPaths(of command: CommandSpec, path: [String] = []) -> [[String]] {
    let own = command.isGroup ? [] : [path]
    return own + command.subcommands.flatMap { leafPaths(of: $0, path: path + [$0.name]) }
  }
}
