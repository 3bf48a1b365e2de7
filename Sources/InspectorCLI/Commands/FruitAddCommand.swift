import CaseStore
import CommandLineKit

/// `inspector fruit add <name> --color C`.
struct FruitAddCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "add",
    abstract: "Add a fruit.")

  let name = Argument<String>("name", help: "The fruit's name (unique, ignoring case).")
  /// Checked by the case store (``Fruit/normalizedColor(_:)``, exit 65), so kept as text.
  let color = Option<String>("color", help: "A colour name (red, yellow, pink, ...) or #RRGGBB.")

  var declarations: [any CommandDeclaration] { [name, color] }

  func run(_ context: CommandContext) throws -> String {
    let color = try Fruit.normalizedColor(try context[self.color])
    let fruit = try context.openDatabase(write: true).fruits.add(
      name: try context[name], color: color)
    return FruitOutput.render(fruit, context, after: .added)
  }
}
