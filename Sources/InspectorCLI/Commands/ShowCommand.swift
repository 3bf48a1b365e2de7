import CaseStore

/// `inspector show <animal>`: the inspector view of one suspect (README "A short tour").
struct ShowCommand: InspectorCommand {
  static let spec = CommandSpec(
    name: "show",
    abstract: "Show one suspect: identity and interview.",
    arguments: [animalArgument])

  /// The `<animal>` argument shared by commands that take a suspect.
  static let animalArgument = ArgumentSpec(
    "animal",
    help: "The suspect: its species, name or numeric id (case ignored), or id:N; a word that"
      + " matches several suspects is refused as ambiguous.")

  static func run(_ context: CommandContext) throws -> String {
    let suspect = try context.openDatabase(write: false).suspects.find(context.argument("animal"))
    return SuspectOutput.render(suspect, context)
  }
}
