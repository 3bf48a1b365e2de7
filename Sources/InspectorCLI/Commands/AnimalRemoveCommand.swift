import CaseStore
import CommandLineKit

/// `inspector animal remove <animal>`: delete a suspect with its interview and favourites.
struct AnimalRemoveCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "remove",
    abstract: "Remove a suspect with its interview and favourite fruits.")

  let animal = Argument<String>.animal

  var declarations: [any CommandDeclaration] { [animal] }

  func run(_ context: CommandContext) throws -> String {
    let database = try context.openDatabase(write: true)
    let suspect = try database.write {
      let id = try database.suspects.resolve(try context[animal])
      return try database.suspects.remove(id: id)
    }
    return SuspectOutput.render(suspect, context, after: .removed)
  }
}
