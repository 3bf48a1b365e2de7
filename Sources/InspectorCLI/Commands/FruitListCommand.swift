import CaseStore
import CommandLineKit

/// `inspector fruit list`: every fruit with its colour.
struct FruitListCommand: ReadingCommand {
  static let configuration = CommandConfiguration(
    name: "list", abstract: "List the fruits and their colours.")

  var declarations: [any CommandDeclaration] { [] }

  func run(_ context: CommandContext, _ db: CaseReader) throws -> String {
    let listing = FruitOutput.listing(context)
    try db.fruits.forEachPage { try listing.write($0) }
    try listing.finish()
    return ""
  }
}
