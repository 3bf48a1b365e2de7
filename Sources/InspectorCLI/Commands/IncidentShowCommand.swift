import CaseStore
import CommandLineKit

/// `inspector incident show <id>`: the bulletin and its top suspects.
struct IncidentShowCommand: ReadingCommand {
  static let configuration = CommandConfiguration(
    name: "show",
    abstract: "Show a bulletin: fruit, time, clues, place, notes and the top suspects.")

  let id = Argument<IncidentID>("id", help: "The incident's id (a whole number, 1 or more).")

  /// How many suspects the bulletin page lists.
  static let topSuspects = 3

  var declarations: [any CommandDeclaration] { [id] }

  func run(_ context: CommandContext, _ db: CaseReader) throws -> String {
    let incident = try db.incidents.find("\(try context[id].value)")
    IncidentPresenter.warnAboutBrokenReferences([incident], context)
    guard context.format == .table else {
      return Render.record(
        context, json: IncidentPresenter.json(incident), csvHeader: IncidentPresenter.csvHeader,
        csv: IncidentPresenter.csvFields(incident)
      ) { "" }
    }
    return try Self.page(
      incident, db: db, style: context.style, limit: Self.topSuspects)
  }

  /// The bulletin followed by its ranking (with each clue's verdict).
  static func page(_ incident: Incident, db: CaseReader, style: OutputStyle, limit: Int)
    throws -> String
  {
    let ranking = try db.ranking.rank(for: incident, limit: limit)
    let presenter = SuspectPresenter(style: style)
    return IncidentPresenter(style: style).bulletin(incident) + "\n\n"
      + style.bold("Top suspects") + "\n"
      + RankCommand.table(ranking, presenter: presenter, explain: true) + "\n"
  }
}
