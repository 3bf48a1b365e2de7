import CaseStore
import CommandLineKit

/// `inspector incident list`: every bulletin, oldest first.
struct IncidentListCommand: ReadingCommand {
  static let configuration = CommandConfiguration(
    name: "list", abstract: "List the nibble incidents.")

  var declarations: [any CommandDeclaration] { [] }

  func run(_ context: CommandContext, _ db: CaseReader) throws -> String {
    let listing = IncidentPresenter.listing(context)
    try db.incidents.forEachPage { page in
      IncidentPresenter.warnAboutBrokenReferences(page, context)
      try listing.write(page)
    }
    try listing.finish()
    return ""
  }
}
