import CaseStore
import CommandLineKit

/// `inspector favorite move <animal> <fruit> --to N`: reorder one favourite; the others keep
/// their relative order.
struct FavoriteMoveCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "move",
    abstract: "Move one of a suspect's favourite fruits to another position.")

  let animal = Argument<String>.animal
  let fruit = Argument<String>.fruit
  let to = Option<PositiveCount>(
    "to", valueName: "n",
    help: "The new position, 1 for the most favoured; past the last moves it last.")

  var declarations: [any CommandDeclaration] { [animal, fruit, to] }

  func run(_ context: CommandContext) throws -> String {
    let suspect = try context.changeSuspect(try context[animal]) { database, id in
      try database.suspects.moveFavorite(
        id: id, fruit: try context[fruit], to: try context[to].value)
    }
    return SuspectOutput.render(suspect, context, after: .favorites)
  }
}
