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
    return IncidentPresenter.render(incident, context, verb: "Removed")
  }
}
