import CaseStore

/// `inspector animal edit <animal> [--name N] [--species S] [--paw P] [--emoji E]`.
struct AnimalEditCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "edit",
    abstract: "Change a suspect's name, species, paw size or emoji.")

  let animal = Argument<String>.animal
  let name = Option<String?>("name", help: "A new name.")
  let species = Option<String?>("species", help: "A new species (unique, ignoring case).")
  let paw = Option<PawSize?>("paw", help: "A new paw size.")
  let emoji = Option<String?>("emoji", help: "A new emoji; an empty value removes it.")

  func validate(_ context: CommandContext) throws(UsageError) {
    if edit(context).isEmpty {
      throw context.usageError("Nothing to change: give --name, --species, --paw or --emoji")
    }
  }

  func run(_ context: CommandContext) throws -> String {
    let edit = self.edit(context)
    let suspect = try context.changeSuspect(context[animal]) { database, id in
      try database.suspects.edit(id: id, edit)
    }
    return SuspectOutput.render(
      suspect, context,
      message: "Updated \(SuspectPresenter.displayName(suspect)) the \(suspect.species)"
        + " (id \(suspect.id)).")
  }

  /// The change the options ask for.
  func edit(_ context: CommandContext) -> SuspectEdit {
    SuspectEdit(
      name: context[name], species: context[species], pawSize: context[paw],
      emoji: context[emoji].map { $0.isEmpty ? nil : $0 })
  }
}
