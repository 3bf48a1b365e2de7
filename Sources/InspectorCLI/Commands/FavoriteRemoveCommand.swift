import CaseStore
import CommandLineKit

/// `inspector favorite remove <animal> <fruit>`: the other favourites keep their order.
struct FavoriteRemoveCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "remove",
    abstract: "Remove one of a suspect's favourite fruits.")

  let animal = Argument<String>.animal
  let fruit = Argument<String>.fruit

  var declarations: [any CommandDeclaration] { [animal, fruit] }

  func run(_ context: CommandContext) throws -> String {
    let suspect = try context.changeSuspect(try context[animal]) { database, id in
      try database.suspects.removeFavorite(id: id, fruit: try context[fruit])
    }
    return SuspectOutput.render(suspect, context, after: .favorites)
  }
}
