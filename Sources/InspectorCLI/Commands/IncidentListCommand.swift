import CaseStore
import CommandLineKit

/// `inspector incident list`: every bulletin, oldest first.
struct IncidentListCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "list", abstract: "List the nibble incidents.")

  var declarations: [any CommandDeclaration] { [] }

  func run(_ context: CommandContext) throws -> String {
    let listing = IncidentPresenter.listing(context)
    try context.openDatabase(write: false).incidents.forEachPage { page in
      IncidentPresenter.warnAboutBrokenReferences(page, context)
      try listing.write(page)
    }
    try listing.finish()
    return ""
  }
}
