import CaseStore
import CommandLineKit

/// `inspector incident remove <id>`: delete a bulletin (nothing else refers to it).
struct IncidentRemoveCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "remove",
    abstract: "Remove a bulletin.")

  let id = Argument<IncidentID>("id", help: "The incident's id (a whole number, 1 or more).")

  var declarations: [any CommandDeclaration] { [id] }

  func run(_ context: CommandContext) throws -> String {
    let incident = try context.openDatabase(write: true).incidents.remove(
      "\(try context[id].value)")
    return IncidentPresenter.render(incident, context, after: .removed)
  }
}
