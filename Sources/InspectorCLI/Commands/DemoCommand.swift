import CaseStore
import CommandLineKit

/// `inspector demo`: the main job in one command. Creates and seeds the database when it is
/// new (or holds nothing yet), then prints the suspect table, the latest bulletin and its
/// ranking (docs/command-line.md "demo").
struct DemoCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "demo",
    abstract: "Create and seed the database if missing; show suspects, latest bulletin, ranking.")

  var declarations: [any CommandDeclaration] { [] }

  func run(_ context: CommandContext) throws -> String {
    let (database, created) = try context.createDatabase()
    var seeded = false
    if try database.suspects.count() == 0, try database.fruits.all().isEmpty {
      try SeedCase.load(into: database)
      seeded = true
    }
    let suspects = try database.suspects.all()
    let incident = try database.incidents.latest()
    let ranking: [RankedSuspect]
    if let incident {
      ranking = try SuspicionRanking(database: database).rank(for: incident, limit: 20)
    } else {
      ranking = try SuspicionRanking(database: database).bySuspicionLevel(limit: 20)
    }
    let presenter = SuspectPresenter(style: context.style)
    switch context.format {
    case .json, .ndjson:
      let value = JSONValue.object([
        ("database", .string(context.databasePath)),
        ("suspects", .array(suspects.map { .object(SuspectPresenter.json($0)) })),
        ("incident", incident.map { .object(IncidentPresenter.json($0)) } ?? .null),
        ("ranking", .array(ranking.map { .object(RankCommand.json($0)) })),
      ])
      return value.serialized(pretty: context.format == .json) + "\n"
    case .csv:
      return ListCommand.csv(suspects)
    case .table:
      var text = ""
      if created || seeded {
        text += "Created \(context.databasePath) with the seed case.\n\n"
      } else {
        text += "Case file: \(context.databasePath)\n\n"
      }
      text += context.style.bold("Suspects") + "\n" + presenter.table(suspects) + "\n\n"
      if let incident {
        text += IncidentPresenter(style: context.style).bulletin(incident) + "\n\n"
        text += context.style.bold("Ranking for bulletin #\(incident.id)") + "\n"
        text += RankCommand.table(ranking, presenter: presenter, explain: true) + "\n"
      } else {
        text += context.style.bold("Ranking by suspicion level") + "\n"
        text += RankCommand.table(ranking, presenter: presenter) + "\n"
      }
      return text
    }
  }
}
