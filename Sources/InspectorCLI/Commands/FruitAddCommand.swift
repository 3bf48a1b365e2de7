import CaseStore

/// `inspector fruit add <name> --color C`.
struct FruitAddCommand: InspectorCommand {
  static let spec = CommandSpec(
    name: "add",
    abstract: "Add a fruit.",
    arguments: [ArgumentSpec("name", help: "The fruit's name (unique, ignoring case).")],
    options: [
      .option(
        "color", valueName: "color", help: "A colour name (red, yellow, pink, ...) or #RRGGBB.",
        isRequired: true)
    ])

  static func run(_ context: CommandContext) throws -> String {
    let color = try Fruit.normalizedColor(context.arguments.option("color") ?? "")
    let fruit = try context.openDatabase(write: true).fruits.add(
      name: context.argument("name"), color: color)
    return FruitOutput.render(
      fruit, context, message: "Added \(fruit.name) (\(fruit.color), id \(fruit.id)).")
  }
}
