import CaseStore

/// `inspector list`: the suspect table (README "A short tour").
struct ListCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "list",
    abstract: "List the suspects: name, species, favourite fruits and suspicion.")

  func run(_ context: CommandContext) throws -> String {
    let suspects = try context.openDatabase(write: false).suspects.all()
    return Render.list(
      context, json: suspects.map(SuspectPresenter.json), csvHeader: SuspectPresenter.csvHeader,
      csv: suspects.map(SuspectPresenter.csvFields)
    ) { SuspectPresenter(style: context.style).table(suspects) }
  }

  /// The suspects as CSV with a header.
  static func csv(_ suspects: [Suspect]) -> String {
    CSVWriter.document(
      header: SuspectPresenter.csvHeader, rows: suspects.map(SuspectPresenter.csvFields))
  }
}
