import CaseStore
import CommandLineKit

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

  var declarations: [any CommandDeclaration] { [animal, name, species, paw, emoji] }

  func validate(_ context: CommandContext) throws(UsageError) {
    if try edit(context).isEmpty {
      throw context.usageError("Nothing to change: give --name, --species, --paw or --emoji")
    }
  }

  func run(_ context: CommandContext) throws -> String {
    let edit = try self.edit(context)
    let suspect = try context.changeSuspect(try context[animal]) { database, id in
      try database.suspects.edit(id: id, edit)
    }
    return SuspectOutput.render(suspect, context, after: .updated)
  }

  /// The change the options ask for.
  func edit(_ context: CommandContext) throws(UsageError) -> SuspectEdit {
    SuspectEdit(
      name: try context[name], species: try context[species], pawSize: try context[paw],
      emoji: try context[emoji].map { $0.isEmpty ? nil : $0 })
  }
}
