import CaseStore
import CommandLineKit

/// `inspector history [<animal>] [--fruit F] [--incident ID] [--since TIME] [--limit N]`: the
/// case history, change sets newest first (docs/history.md).
struct HistoryCommand: ReadingCommand {
  static let configuration = CommandConfiguration(
    name: "history",
    abstract: "Show who changed what, when and why: change sets, newest first.",
    discussion: """
      Every insert, update and delete of case data is recorded, from inspector and from any
      other client (the sqlite3 shell, Python). The filters keep only the changes of one
      suspect (id:N also names a removed one), one fruit or one incident; --since keeps change
      sets recorded at or after TIME (YYYY-MM-DDTHH:MM[:SS] local, or ending in Z for UTC);
      --limit counts change sets.
      """)

  let animal = Argument<String?>(
    "animal", help: "Only this suspect's changes: species, name, id or id:N (also removed).")
  let fruit = Option<String?>(
    "fruit", valueName: "fruit",
    help: "Only changes of this fruit (its row, favourites, incidents).")
  /// Checked by the case store (exit 65), so kept as text.
  let incident = Option<String?>("incident", valueName: "id", help: "Only this incident's changes.")
  let since = Option<String?>(
    "since", valueName: "time", help: "Only change sets at or after TIME (YYYY-MM-DDTHH:MM).")
  let limit = Option<PositiveCount?>("limit", valueName: "n", help: "At most N change sets.")

  var declarations: [any CommandDeclaration] { [animal, fruit, incident, since, limit] }

  func run(_ context: CommandContext, _ db: CaseReader) throws -> String {
    let history = db.history
    var filter = CaseHistory.Filter(limit: try context[limit]?.value)
    if let animal = try context[animal] {
      filter.animalID = try history.resolveSuspect(animal)
    }
    if let fruit = try context[fruit] {
      filter.fruitID = try db.fruits.find(fruit).id
    }
    if let incident = try context[incident] {
      guard let id = Int64(incident), id > 0 else { throw CaseError.unknownIncident(incident) }
      filter.incidentID = id
    }
    if let since = try context[since] {
      filter.since = try history.utcTime(parsing: since)
    }
    let writer = HistoryPresenter.writer(context)
    try history.forEachPage(filter) { try writer.write($0) }
    try writer.finish()
    return ""
  }
}
