import CaseStore

/// `inspector list`: the suspect table (README "A short tour").
struct ListCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "list",
    abstract: "List the suspects: name, species, favourite fruits and suspicion.")

  func run(_ context: CommandContext) throws -> String {
    let listing = SuspectPresenter.listing(context)
    try context.openDatabase(write: false).suspects.forEachPage { try listing.write($0) }
    try listing.finish()
    return ""
  }

  /// The suspects as CSV with a header.
  static func csv(_ suspects: [Suspect]) -> String {
    CSVWriter.document(
      header: SuspectPresenter.csvHeader, rows: suspects.map(SuspectPresenter.csvFields))
  }
}
