import CaseStore
import CommandLineKit

/// `inspector init [--seed]`: create the database if missing and apply pending migrations;
/// `--seed` loads the seed case (docs/command-line.md "init").
struct InitCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "init",
    abstract: "Create the database if missing and apply pending migrations.")

  let seed = Flag("seed", help: "Load the seed case (refused when suspects already exist).")

  var declarations: [any CommandDeclaration] { [seed] }

  func run(_ context: CommandContext) throws -> String {
    let (database, created) = try context.createDatabase()
    if context[seed] {
      try SeedCase.load(into: database)
    }
    let version = try database.schemaVersion()
    let suspects = try database.suspects.count()
    let fruits = try database.fruits.all().count
    return CaseFileReportPresenter.renderOpened(
      path: context.databasePath, created: created, schemaVersion: version, suspects: suspects,
      fruits: fruits, context)
  }
}
