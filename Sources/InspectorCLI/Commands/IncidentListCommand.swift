import CaseStore

/// `inspector incident list`: every bulletin, oldest first.
struct IncidentListCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "list", abstract: "List the nibble incidents.")

  func run(_ context: CommandContext) throws -> String {
    let incidents = try context.openDatabase(write: false).incidents.all()
    IncidentPresenter.warnAboutBrokenReferences(incidents, context)
    return Render.list(
      context, json: incidents.map(IncidentPresenter.json),
      csvHeader: IncidentPresenter.csvHeader, csv: incidents.map(IncidentPresenter.csvFields)
    ) { IncidentPresenter(style: context.style).table(incidents) }
  }
}
