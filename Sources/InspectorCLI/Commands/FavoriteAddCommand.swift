import CaseStore

/// `inspector favorite add <animal> <fruit>`: append a favourite fruit.
struct FavoriteAddCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "add",
    abstract: "Add a favourite fruit after the suspect's others.")

  let animal = Argument<String>.animal
  let fruit = Argument<String>.fruit

  func run(_ context: CommandContext) throws -> String {
    let suspect = try context.changeSuspect(context[animal]) { database, id in
      try database.suspects.addFavorite(id: id, fruit: context[fruit])
    }
    return SuspectOutput.renderFavorites(suspect, context)
  }
}
