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
    (["serve", "token", "add"], ServeTokenAddCommand.self),
    (["serve", "token", "list"], ServeTokenListCommand.self),
    (["serve", "token", "revoke"], ServeTokenRevokeCommand.self),
  ]

  /// Abstracts of the groups.
  static let groups: [String: String] = [
    "animal": "Add, edit and remove suspects.",
    "fruit": "List, add, edit and remove fruits.",
    "favorite": "Add, reorder and remove a suspect's favourite fruits (order is kept).",
    "incident": "Record, correct, remove and read nibble incidents (Fruit Nibble Bulletins).",
    "migrate": "Show and apply schema migrations.",
    "changes": "Carry changes between copies of a case file as changeset files.",
    "serve": "Serve the desk in the browser, and say who may sign in to it.",
    "serve token": "Add, list and revoke the investigators' personal access tokens for the desk.",
  ]

  /// Leaf commands by path, for dispatch.
  static let commands: [[String]: any InspectorCommand.Type] = Dictionary(
    uniqueKeysWithValues: leaves.map { ($0.path, $0.command) })

  /// The root spec, with groups built from ``leaves`` in order.
  static let root: CommandSpec = {
    var subcommands: [CommandSpec] = []
    for (path, command) in leaves {
      place(command.spec, at: path[...], under: [], in: &subcommands)
    }
    return CommandSpec(
      name: "inspector",
      abstract: "The Fruit Inspectors' case database: suspects, fruits, alibis and rankings.",
      options: globalOptions, subcommands: subcommands,
      version: "inspector \(Inspector.version) (SQLite \(CaseDatabase.sqliteVersion))")
  }()

  /// Puts `spec` at `path` (its last word is the spec's name) among `siblings`, making the
  /// groups on the way (their abstracts from ``groups``, by their words joined with a space).
  /// A leaf that gets subcommands (`history prune`, `serve token add`) still runs by itself,
  /// whether it is listed before or after them.
  private static func place(
    _ spec: CommandSpec, at path: ArraySlice<String>, under prefix: [String],
    in siblings: inout [CommandSpec]
  ) {
    guard let name = path.first else { return }
    let index = siblings.firstIndex { $0.name == name }
    if path.count == 1 {
      guard let index else { return siblings.append(spec) }
      var leaf = spec
      leaf.subcommands = siblings[index].subcommands
      leaf.runsItself = !leaf.subcommands.isEmpty
      siblings[index] = leaf
      return
    }
    let words = prefix + [name]
    if index == nil {
      siblings.append(
        CommandSpec(name: name, abstract: groups[words.joined(separator: " ")] ?? ""))
    }
    let at = index ?? siblings.count - 1
    if siblings[at].subcommands.isEmpty, index != nil { siblings[at].runsItself = true }
    place(spec, at: path.dropFirst(), under: words, in: &siblings[at].subcommands)
  }
}
