import CaseStore
import CommandLineKit

/// `inspector rank [--incident ID] [--limit N | --all] [--explain]`: the suspicion ranking
/// (docs/ranking.md).
struct RankCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "rank",
    abstract: "Rank the suspects, most suspicious first (the top 20 unless told otherwise).",
    discussion: """
      Without --incident: by suspicion level. With --incident: by clues matched (paw_size,
      favorite_fruit, no_alibi, awake), then suspicion level, then name, then species.
      """)

  /// Resolved by the case store (exit 65 for an unknown or malformed id), so kept as text.
  let incident = Option<IncidentID?>(
    "incident", valueName: "id", help: "Check each suspect against this incident.")
  let limit = Option<PositiveCount?>(
    "limit", valueName: "n", help: "How many suspects to show (default 20).")
  let all = Flag("all", help: "Show every suspect.")
  let explain = Flag("explain", help: "Show each clue's verdict.")

  var declarations: [any CommandDeclaration] { [incident, limit, all, explain] }

  func validate(_ context: CommandContext) throws(UsageError) {
    if context[all], try context[limit] != nil {
      throw context.usageError("Give either --limit or --all, not both")
    }
    if context[explain], try context[incident] == nil {
      throw context.usageError("--explain shows clue verdicts, so it needs --incident <id>")
    }
  }

  func run(_ context: CommandContext) throws -> String {
    // `--limit N`, `--all` (no limit), or 20.
    let limit = context[all] ? nil : (try context[self.limit]?.value ?? 20)
    // Reads only: ties of rows other clients wrote order by SQL's keys until the next write
    // (docs/ranking.md).
    let database = try context.openDatabase(write: false)
    let presenter = SuspectPresenter(style: context.style)
    let explain = context[explain]
    let listing = RankingPresenter.listing(context, presenter: presenter, explain: explain)
    let ranking = SuspicionRanking(database: database)
    if let reference = try context[incident] {
      let incident = try database.incidents.find(id: reference.value)
      IncidentPresenter.warnAboutBrokenReferences([incident], context)
      try ranking.forEachPage(for: incident, limit: limit) { try listing.write($0) }
    } else {
      try ranking.forEachPage(limit: limit) { try listing.write($0) }
    }
    try listing.finish()
    return ""
  }
}
