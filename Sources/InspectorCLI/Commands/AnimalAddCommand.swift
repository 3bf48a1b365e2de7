import CaseStore
import CommandLineKit

/// `inspector animal add --name N --species S --paw P [--emoji E] [--fruit F]...`.
struct AnimalAddCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "add",
    abstract: "Add a suspect.")

  let name = Option<String>("name", help: "The suspect's name.")
  let species = Option<String>("species", help: "The species (unique, ignoring case).")
  let paw = Option<PawSize>("paw", help: "Paw size.")
  let emoji = Option<String?>("emoji", help: "An emoji for the suspect.")
  let fruits = Option<[String]>(
    "fruit", help: "A favourite fruit; repeat in order of preference.")

  var declarations: [any CommandDeclaration] { [name, species, paw, emoji, fruits] }

  func run(_ context: CommandContext) throws -> String {
    let database = try context.openDatabase(write: true)
    let suspect = try database.suspects.add(
      NewSuspect(
        name: try context[name], species: try context[species], pawSize: try context[paw],
        emoji: try context[emoji], favoriteFruits: try context[fruits]))
    return SuspectOutput.render(suspect, context, after: .added)
  }
}
