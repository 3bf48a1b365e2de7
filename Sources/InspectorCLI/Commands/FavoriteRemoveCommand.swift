import CaseStore

/// `inspector favorite remove <animal> <fruit>`: the other favourites keep their order.
struct FavoriteRemoveCommand: InspectorCommand {
  static let spec = CommandSpec(
    name: "remove",
    abstract: "Remove one of a suspect's favourite fruits.",
    arguments: [ShowCommand.animalArgument, FavoriteAddCommand.fruitArgument])

  static func run(_ context: CommandContext) throws -> String {
    let suspect = try context.changeSuspect { database, id in
      try database.suspects.removeFavorite(id: id, fruit: context.argument("fruit"))
    }
    let remaining =
      suspect.favoriteFruits.isEmpty ? "(none)" : suspect.favoriteFruits.joined(separator: ", ")
    return SuspectOutput.render(
      suspect, context, message: "\(SuspectPresenter.title(suspect)) now favours: \(remaining).")
  }
}
