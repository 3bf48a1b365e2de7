import CaseStore
import CommandLineKit

/// `inspector serve token list`: who may sign in to the desk (names and creation times, never
/// a token or its hash).
struct ServeTokenListCommand: ReadingCommand {
  static let configuration = CommandConfiguration(
    name: "list", abstract: "List the investigators who have a token for the desk.")

  var declarations: [any CommandDeclaration] { [] }

  func run(_ context: CommandContext, _ db: CaseReader) throws -> String {
    let listing = InvestigatorOutput.listing(context)
    try listing.write(try db.investigators.all())
    try listing.finish()
    return ""
  }
}
