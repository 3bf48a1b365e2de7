import CaseStore

/// `inspector favorite add <animal> <fruit>`: append a favourite fruit.
struct FavoriteAddCommand: InspectorCommand {
  static let spec = CommandSpec(
    name: "add",
    abstract: "Add a favourite fruit after the suspect's others.",
    arguments: [ShowCommand.animalArgument, fruitArgument])

  /// The `<fruit>` argument: a fruit name, ignoring case.
  static let fruitArgument = ArgumentSpec("fruit", help: "The fruit's name (ignoring case).")

  static func run(_ context: CommandContext) throws -> String {
    let suspect = try context.changeSuspect { database, id in
      try database.suspects.addFavorite(id: id, fruit: context.argument("fruit"))
    }
    return SuspectOutput.render(
      suspect, context,
      message: "\(SuspectPresenter.title(suspect)) now favours: "
        + suspect.favoriteFruits.joined(separator: ", ") + ".")
  }
}
