import CaseStore
import CommandLineKit

/// `inspector favorite remove <animal> <fruit>`: the other favourites keep their order.
struct FavoriteRemoveCommand: WritingCommand {
  static let configuration = CommandConfiguration(
    name: "remove",
    abstract: "Remove one of a suspect's favourite fruits.")

  let animal = Argument<String>.animal
  let fruit = Argument<String>.fruit

  var declarations: [any CommandDeclaration] { [animal, fruit] }

  func run(_ context: CommandContext, _ db: CaseWriter) throws -> String {
    let suspect = try db.changeSuspect(try context[animal]) { id in
      try db.suspects.removeFavorite(id: id, fruit: try context[fruit])
    }
    return SuspectOutput.render(suspect, context, after: .favorites)
  }
}
