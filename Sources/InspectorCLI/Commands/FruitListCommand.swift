import CaseStore
import CommandLineKit

/// `inspector fruit list`: every fruit with its colour.
struct FruitListCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "list", abstract: "List the fruits and their colours.")

  var declarations: [any CommandDeclaration] { [] }

  func run(_ context: CommandContext) throws -> String {
    let listing = FruitOutput.listing(context)
    try context.openDatabase(write: false).fruits.forEachPage { try listing.write($0) }
    try listing.finish()
    return ""
  }
}
