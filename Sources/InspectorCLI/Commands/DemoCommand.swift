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
    return DemoPresenter.render(
      DemoPresenter.Tour(
        database: context.databasePath, announcesSeedCase: created || seeded,
        suspects: suspects, incident: incident, ranking: ranking), context)
  }
}
