import CaseStore
import CommandLineKit

/// The command tree of `inspector` (docs/command-line.md "Commands"): global options, groups and
/// leaf commands, and the table from command path to implementation.
enum CommandTree {
  /// The global options, accepted before or after the command.
  static let globalOptions: [OptionSpec] = GlobalOptions().specs

  /// Leaf commands by path.
  static let leaves: [(path: [String], command: any InspectorCommand.Type)] = [
    (["init"], InitCommand.self),
    (["demo"], DemoCommand.self),
    (["list"], ListCommand.self),
    (["show"], ShowCommand.self),
    (["animal", "add"], AnimalAddCommand.self),
    (["animal", "edit"], AnimalEditCommand.self),
    (["animal", "remove"], AnimalRemoveCommand.self),
    (["fruit", "list"], FruitListCommand.self),
    (["fruit", "add"], FruitAddCommand.self),
    (["fruit", "edit"], FruitEditCommand.self),
    (["fruit", "remove"], FruitRemoveCommand.self),
    (["favorite", "add"], FavoriteAddCommand.self),
    (["favorite", "move"], FavoriteMoveCommand.self),
    (["favorite", "remove"], FavoriteRemoveCommand.self),
    (["alibi"], AlibiCommand.self),
    (["sleep"], SleepCommand.self),
    (["suspect"], SuspectCommand.self),
    (["incident", "add"], IncidentAddCommand.self),
    (["incident", "edit"], IncidentEditCommand.self),
    (["incident", "remove"], IncidentRemoveCommand.self),
    (["incident", "list"], IncidentListCommand.self),
    (["incident", "show"], IncidentShowCommand.self),
    (["rank"], RankCommand.self),
    (["history"], HistoryCommand.self),
    (["history", "prune"], HistoryPruneCommand.self),
    (["undo"], UndoCommand.self),
    (["redo"], RedoCommand.self),
    (["blame"], BlameCommand.self),
    (["revert"], RevertCommand.self),
    (["sql"], SQLCommand.self),
    (["backup"], BackupCommand.self),
    (["restore"], RestoreCommand.self),
    (["check"], CheckCommand.self),
    (["migrate", "status"], MigrateStatusCommand.self),
    (["migrate", "up"], MigrateUpCommand.self),
    (["diff"], DiffCommand.self),
    (["changes", "export"], ChangesExportCommand.self),
    (["changes", "show"], ChangesShowCommand.self),
    (["changes", "apply"], ChangesApplyCommand.self),
    (["completions"], CompletionsCommand.self),
    (["manual"], ManualCommand.self),
    (["export"], ExportCommand.self),
    (["import"], ImportCommand.self),
    (["optimize"], OptimizeCommand.self),
    (["search"], SearchCommand.self),
    (["serve"], ServeCommand.self),
  ]

  /// Abstracts of the groups.
  static let groups: [String: String] = [
    "animal": "Add, edit and remove suspects.",
    "fruit": "List, add, edit and remove fruits.",
    "favorite": "Add, reorder and remove a suspect's favourite fruits (order is kept).",
    "incident": "Record, correct, remove and read nibble incidents (Fruit Nibble Bulletins).",
    "migrate": "Show and apply schema migrations.",
    "changes": "Carry changes between copies of a case file as changeset files.",
  ]

  /// Leaf commands by path, for dispatch.
  static let commands: [[String]: any InspectorCommand.Type] = Dictionary(
    uniqueKeysWithValues: leaves.map { ($0.path, $0.command) })

  /// The root spec, with groups built from ``leaves`` in order.
  static let root: CommandSpec = {
    var subcommands: [CommandSpec] = []
    for (path, command) in leaves {
      insert(command.spec, at: path, depth: 0, into: &subcommands)
    }
    return CommandSpec(
      name: "inspector",
      abstract: "The Fruit Inspectors' case database: suspects, fruits, alibis and rankings.",
      options: globalOptions, subcommands: subcommands,
      version: "inspector \(Inspector.version) (SQLite \(CaseDatabase.sqliteVersion))")
  }()

  /// Puts `spec`, the leaf at `path`, into `list` (the subcommands at `path[..<depth]`),
  /// making the groups on the way (their abstracts from ``groups``, keyed by the words of the
  /// group's path: `"serve token"`). A leaf that gets subcommands (`history prune`,
  /// `serve token add`) still runs by itself.
  private static func insert(
    _ spec: CommandSpec, at path: [String], depth: Int, into list: inout [CommandSpec]
  ) {
    guard depth < path.count - 1 else {
      list.append(spec)
      return
    }
    if let index = list.firstIndex(where: { $0.name == path[depth] }) {
      if list[index].subcommands.isEmpty { list[index].runsItself = true }
      insert(spec, at: path, depth: depth + 1, into: &list[index].subcommands)
    } else {
      let key = path[...depth].joined(separator: " ")
      var group = CommandSpec(name: path[depth], abstract: groups[key] ?? "", subcommands: [])
      insert(spec, at: path, depth: depth + 1, into: &group.subcommands)
      list.append(group)
    }
  }
}
