@testable import InspectorCLI

/// Finds mistakes in a command tree that the parser would only meet when a user types the
/// command: duplicate option names (long or short, a command's own against the global ones),
/// a positional after a repeating one, an optional positional before a required one, missing
/// help text, and groups that take positionals.
enum CommandTreeChecker {
  /// Every problem in the tree, one line each, naming the command; empty when it is sound.
  static func problems(in root: CommandSpec) -> [String] {
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
      if option.kind != .flag && isBlank(option.valueName) {
        problems.append("\(name): --\(option.name) has no value name")
      }
    }
    for duplicate in duplicates(command.arguments.map(\.name)) {
      problems.append("\(name): argument <\(duplicate)> is declared twice")
    }
    for (index, argument) in command.arguments.enumerated() {
      if isBlank(argument.help) { problems.append("\(name): <\(argument.name)> has no help") }
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

  private static func isBlank(_ text: String) -> Bool {
    text.allSatisfy(\.isWhitespace)
  }

  /// The paths of the tree's leaf commands, depth first.
  static func leafPaths(of command: CommandSpec, path: [String] = []) -> [[String]] {
    let own = command.isGroup ? [] : [path]
    return own + command.subcommands.flatMap { leafPaths(of: $0, path: path + [$0.name]) }
  }
}
