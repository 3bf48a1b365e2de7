import CaseStore
import CommandLineKit

/// `inspector favorite add <animal> <fruit>`: append a favourite fruit.
struct FavoriteAddCommand: WritingCommand {
  static let configuration = CommandConfiguration(
    name: "add",
    abstract: "Add a favourite fruit after the suspect's others.")

  let animal = Argument<String>.animal
  let fruit = Argument<String>.fruit

  var declarations: [any CommandDeclaration] { [animal, fruit] }

  func run(_ context: CommandContext, _ db: CaseWriter) throws -> String {
    let suspect = try db.changeSuspect(try context[animal]) { id in
      try db.suspects.addFavorite(id: id, fruit: try context[fruit])
    }
    return SuspectOutput.render(suspect, context, after: .favorites)
  }
}
