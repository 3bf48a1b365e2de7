import CaseStore
import CommandLineKit

/// `inspector fruit edit <fruit> [--name N] [--color C]`: the rules of `fruit add`.
struct FruitEditCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "edit",
    abstract: "Rename a fruit or change its colour.")

  let fruit = Argument<String>.fruit
  let name = Option<String?>("name", help: "A new name (unique, ignoring case).")
  /// Checked by the case store (``Fruit/normalizedColor(_:)``, exit 65), so kept as text.
  let color = Option<String?>(
    "color", help: "A new colour: a colour name (red, yellow, pink, ...) or #RRGGBB.")

  var declarations: [any CommandDeclaration] { [fruit, name, color] }

  func validate(_ context: CommandContext) throws(UsageError) {
    if try edit(context).isEmpty {
      throw context.usageError("Nothing to change: give --name or --color")
    }
  }

  func run(_ context: CommandContext) throws -> String {
    let fruit = try context.openDatabase(write: true).fruits.edit(
      try context[self.fruit], edit(context))
    return FruitOutput.render(fruit, context, after: .updated)
  }

  /// The change the options ask for.
  func edit(_ context: CommandContext) throws(UsageError) -> FruitEdit {
    FruitEdit(name: try context[name], color: try context[color])
  }
}
