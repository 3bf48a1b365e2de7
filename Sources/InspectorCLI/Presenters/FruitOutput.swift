import CaseStore

/// Fruit objects (docs/output-formats.md "Fruits"): `id`, `name`, `color`.
enum FruitOutput {
  static let csvHeader = ["id", "name", "color"]

  static func json(_ fruit: Fruit) -> [(String, JSONValue)] {
    [("id", .integer(fruit.id)), ("name", .string(fruit.name)), ("color", .string(fruit.color))]
  }

  static func csvFields(_ fruit: Fruit) -> [String?] {
    ["\(fruit.id)", fruit.name, fruit.color]
  }

  static func render(_ fruit: Fruit, _ context: CommandContext, message: String) -> String {
    Render.record(context, json: json(fruit), csvHeader: csvHeader, csv: csvFields(fruit)) {
      TextTable.singleLine(message)
    }
  }
}
