import CaseStore
import CommandLineKit

/// `inspector incident show <id>`: the bulletin and its top suspects.
struct IncidentShowCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "show",
    abstract: "Show a bulletin: fruit, time, clues, place, notes and the top suspects.")

  let id = Argument<IncidentID>("id", help: "The incident's id (a whole number, 1 or more).")

  /// How many suspects the bulletin page lists.
  static let topSuspects = 3

  var declarations: [any CommandDeclaration] { [id] }

  func run(_ context: CommandContext) throws -> String {
    let database = try context.openDatabase(write: false)
    let incident = try database.incidents.find("\(try context[id].value)")
    IncidentPresenter.warnAboutBrokenReferences([incident], context)
    return try IncidentPresenter.page(
      incident,
      ranking: {
        try SuspicionRanking(database: database).rank(for: incident, limit: Self.topSuspects)
      }, context)
  }
}
