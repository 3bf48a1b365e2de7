import CaseStore

/// `inspector incident remove <id>`: delete a bulletin (nothing else refers to it).
struct IncidentRemoveCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "remove",
    abstract: "Remove a bulletin.")

  /// Resolved by the case store (exit 65 for an unknown or malformed id), so kept as text.
  let id = Argument<String>("id", help: "The incident's id.")

  func run(_ context: CommandContext) throws -> String {
    let incident = try context.openDatabase(write: true).incidents.remove(context[id])
    return Render.record(
      context, json: IncidentPresenter.json(incident), csvHeader: IncidentPresenter.csvHeader,
      csv: IncidentPresenter.csvFields(incident)
    ) {
      "Removed incident \(incident.id): \(IncidentPresenter.fruit(incident)) nibbled"
        + " \(IncidentPresenter.when(incident))."
    }
  }
}
