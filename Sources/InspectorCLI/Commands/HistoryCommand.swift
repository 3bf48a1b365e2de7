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
      --limit counts change sets. Each change set is sealed into a hash chain: --verify checks
      it (exit 65 naming the first change set edited or deleted since sealing), --head prints
      the newest seal, to keep elsewhere as proof of the history up to then.
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

  let verify = Flag(
    "verify", help: "Verify the history's seals; exit 65 naming the first broken change set.")
  let head = Flag("head", help: "Print the newest seal (hex) and the change set it seals.")

  var declarations: [any CommandDeclaration] {
    [animal, fruit, incident, since, limit, verify, head]
  }

  /// --verify and --head stand alone: a filter would not change what they report.
  func validate(_ context: CommandContext) throws(UsageError) {
    let chain = [(verify, "--verify"), (head, "--head")].filter { context[$0.0] }.map(\.1)
    guard !chain.isEmpty else { return }
    if chain.count > 1 { throw context.usageError("--verify and --head cannot be combined") }
    let filters: [Bool] = [
      try context[animal] != nil, try context[fruit] != nil, try context[incident] != nil,
      try context[since] != nil, try context[limit] != nil,
    ]
    if filters.contains(true) {
      throw context.usageError(
        "\(chain[0]) takes no suspect, --fruit, --incident, --since or --limit")
    }
  }

  func run(_ context: CommandContext, _ db: CaseReader) throws -> String {
    let history = db.history
    if context[verify] { return try HistoryChainPresenter.verify(history.verifyChain(), context) }
    if context[head] { return HistoryChainPresenter.render(try history.chainHead(), context) }
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
