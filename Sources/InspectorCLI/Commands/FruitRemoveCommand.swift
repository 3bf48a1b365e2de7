import CaseStore

/// `inspector fruit remove <fruit>`: refused while a suspect favours it or an incident
/// concerns it, naming them (README "A short tour").
struct FruitRemoveCommand: InspectorCommand {
  static let spec = CommandSpec(
    name: "remove",
    abstract: "Remove a fruit that no suspect favours and no incident concerns.",
    arguments: [FavoriteAddCommand.fruitArgument])

  static func run(_ context: CommandContext) throws -> String {
    let fruit = try context.openDatabase(write: true).fruits.remove(context.argument("fruit"))
    return FruitOutput.render(fruit, context, message: "Removed \(fruit.name).")
  }
}
