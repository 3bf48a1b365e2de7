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
    // An empty case is seeded in one write unit; one read unit reads what is shown.
    let empty = try database.read { try $0.suspects.count() == 0 && $0.fruits.all().isEmpty }
    if empty {
      try database.write(try context.attribution()) { try SeedCase.load(into: $0) }
    }
    let (suspects, incident, ranking) = try database.read {
      db -> ([Suspect], Incident?, [RankedSuspect]) in
      let incident = try db.incidents.latest()
      let ranking =
        try incident.map { try db.ranking.rank(for: $0, limit: 20) }
        ?? db.ranking.bySuspicionLevel(limit: 20)
      return (try db.suspects.all(), incident, ranking)
    }
    return DemoPresenter.render(
      DemoPresenter.Tour(
        database: context.databasePath, announcesSeedCase: created || empty,
        suspects: suspects, incident: incident, ranking: ranking), context)
  }
}
