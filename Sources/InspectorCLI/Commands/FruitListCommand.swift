import CaseStore

/// `inspector fruit list`: every fruit with its colour.
struct FruitListCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "list", abstract: "List the fruits and their colours.")

  func run(_ context: CommandContext) throws -> String {
    let fruits = try context.openDatabase(write: false).fruits.all()
    return Render.list(
      context, json: fruits.map(FruitOutput.json), csvHeader: FruitOutput.csvHeader,
      csv: fruits.map(FruitOutput.csvFields)
    ) {
      var table = TextTable(
        columns: [.init("ID", alignment: .right), .init("FRUIT"), .init("COLOUR")])
      table.rows = fruits.map { ["\($0.id)", $0.name, $0.color] }
      return table.render(headerStyle: context.style.bold)
    }
  }
}
