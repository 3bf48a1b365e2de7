import CaseStore
import CommandLineKit

/// `inspector favorite add <animal> <fruit>`: append a favourite fruit.
struct FavoriteAddCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "add",
    abstract: "Add a favourite fruit after the suspect's others.")

  let animal = Argument<String>.animal
  let fruit = Argument<String>.fruit

  var declarations: [any CommandDeclaration] { [animal, fruit] }

  func run(_ context: CommandContext) throws -> String {
    let suspect = try context.changeSuspect(try context[animal]) { database, id in
      try database.suspects.addFavorite(id: id, fruit: try context[fruit])
    }
    return SuspectOutput.render(suspect, context, after: .favorites)
  }
}
