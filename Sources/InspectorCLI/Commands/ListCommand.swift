import CaseStore

/// `inspector list [--as-of TIME]`: the suspect table (README "A short tour").
struct ListCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "list",
    abstract: "List the suspects: name, species, favourite fruits and suspicion.",
    discussion: "With --as-of, the suspects as they stood then, rebuilt from the case history.")

  let asOf = Option<String?>.asOf

  func run(_ context: CommandContext) throws -> String {
    let database = try context.caseToRead(asOf: asOf)
    let listing = SuspectPresenter.listing(context)
    try database.suspects.forEachPage { try listing.write($0) }
    try listing.finish()
    return ""
  }

  /// The suspects as CSV with a header.
  static func csv(_ suspects: [Suspect]) -> String {
    CSVWriter.document(
      header: SuspectPresenter.csvHeader, rows: suspects.map(SuspectPresenter.csvFields))
  }
}
