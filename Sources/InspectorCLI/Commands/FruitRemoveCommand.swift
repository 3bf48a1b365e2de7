import CaseStore
import CommandLineKit

/// `inspector fruit remove <fruit>`: refused while a suspect favours it or an incident
/// concerns it, naming them (docs/command-line.md "fruit remove").
struct FruitRemoveCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "remove",
    abstract: "Remove a fruit that no suspect favours and no incident concerns.")

  let fruit = Argument<String>.fruit

  var declarations: [any CommandDeclaration] { [fruit] }

  func run(_ context: CommandContext) throws -> String {
    let fruit = try context.openDatabase(write: true).fruits.remove(try context[self.fruit])
    return FruitOutput.render(fruit, context, after: .removed)
  }
}
