import CaseStore

/// `inspector animal edit <animal> [--name N] [--species S] [--paw P] [--emoji E]`.
struct AnimalEditCommand: InspectorCommand {
  static let spec = CommandSpec(
    name: "edit",
    abstract: "Change a suspect's name, species, paw size or emoji.",
    arguments: [ShowCommand.animalArgument],
    options: [
      .option("name", valueName: "name", help: "A new name."),
      .option("species", valueName: "species", help: "A new species (unique, ignoring case)."),
      .option(
        "paw", valueName: "paw", help: "A new paw size.",
        allowedValues: PawSize.allCases.map(\.rawValue)),
      .option("emoji", valueName: "emoji", help: "A new emoji; an empty value removes it."),
    ])

  static func run(_ context: CommandContext) throws -> String {
    let arguments = context.arguments
    let edit = SuspectEdit(
      name: arguments.option("name"), species: arguments.option("species"),
      pawSize: try arguments.option("paw").map(PawSize.init(parsing:)),
      emoji: arguments.option("emoji").map { $0.isEmpty ? nil : $0 })
    if edit.isEmpty {
      throw context.usageError("Nothing to change: give --name, --species, --paw or --emoji")
    }
    let suspect = try context.changeSuspect { database, id in
      try database.suspects.edit(id: id, edit)
    }
    return SuspectOutput.render(
      suspect, context,
      message: "Updated \(SuspectPresenter.displayName(suspect)) the \(suspect.species)"
        + " (id \(suspect.id)).")
  }
}
