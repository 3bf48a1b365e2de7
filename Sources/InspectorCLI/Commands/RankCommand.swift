import CaseStore

/// `inspector rank [--incident ID] [--limit N | --all] [--explain]`: the suspicion ranking
/// (README "The ranking").
struct RankCommand: InspectorCommand {
  static let spec = CommandSpec(
    name: "rank",
    abstract: "Rank the suspects, most suspicious first (the top 20 unless told otherwise).",
    discussion: """
      Without --incident: by suspicion level. With --incident: by clues matched (paw_size,
      favorite_fruit, no_alibi, awake), then suspicion level, then name, then species.
      """,
    options: [
      .option("incident", valueName: "id", help: "Check each suspect against this incident."),
      .option("limit", valueName: "n", help: "How many suspects to show (default 20)."),
      .flag("all", help: "Show every suspect."),
      .flag("explain", help: "Show each clue's verdict."),
    ])

  static func run(_ context: CommandContext) throws -> String {
    let limit = try self.limit(context)
    if context.arguments.flag("explain") && context.arguments.option("incident") == nil {
      throw context.usageError("--explain shows clue verdicts, so it needs --incident <id>")
    }
    let database = try context.openDatabase(write: false)
    // Ties are ordered by name_key: make the keys other clients wrote right first.
    database.refoldPendingKeysIfAny()
    let ranking: [RankedSuspect]
    if let reference = context.arguments.option("incident") {
      let incident = try database.incidents.find(reference)
      IncidentPresenter.warnAboutBrokenReferences([incident], context)
      ranking = try SuspicionRanking(database: database).rank(for: incident, limit: limit)
    } else {
      ranking = try SuspicionRanking(database: database).bySuspicionLevel(limit: limit)
    }
    let presenter = SuspectPresenter(style: context.style)
    return Render.list(
      context, json: ranking.map(json), csvHeader: csvHeader, csv: ranking.map(csvFields)
    ) { table(ranking, presenter: presenter, explain: context.arguments.flag("explain")) }
  }

  /// `--limit N` (N ≥ 1), `--all` (`nil`), or 20.
  static func limit(_ context: CommandContext) throws -> Int? {
    let arguments = context.arguments
    if arguments.flag("all") {
      if arguments.option("limit") != nil {
        throw context.usageError("Give either --limit or --all, not both")
      }
      return nil
    }
    guard let text = arguments.option("limit") else { return 20 }
    guard let value = Int(text), value >= 1 else {
      throw context.invalidValue(text, for: "limit", reason: "expected a whole number, 1 or more")
    }
    return value
  }

  /// A ranking row: `rank`, the suspect's keys, `clues_matched`, `clues_checked`, and `clues`
  /// (clue name to verdict, only the clues checked; null without an incident).
  static func json(_ row: RankedSuspect) -> [(String, JSONValue)] {
    let clues: JSONValue =
      row.clues.isEmpty ? .null : .object(row.clues.map { ($0.clue.rawValue, .bool($0.matched)) })
    return [("rank", .integer(Int64(row.rank)))] + SuspectPresenter.json(row.suspect) + [
      ("clues_matched", .integer(Int64(row.cluesMatched))),
      ("clues_checked", .integer(Int64(row.cluesChecked))),
      ("clues", clues),
    ]
  }

  static let csvHeader =
    ["rank"] + SuspectPresenter.csvHeader + ["clues_matched", "clues_checked"]
    + Clue.allCases.map { "clue_\($0.rawValue)" }

  /// CSV fields: the clue columns hold `true`/`false`, or are empty when not checked.
  static func csvFields(_ row: RankedSuspect) -> [String?] {
    let verdicts = Clue.allCases.map { clue in
      row.clues.first { $0.clue == clue }.map { "\($0.matched)" }
    }
    return ["\(row.rank)"] + SuspectPresenter.csvFields(row.suspect)
      + ["\(row.cluesMatched)", "\(row.cluesChecked)"] + verdicts
  }

  /// The ranking table: rank, suspect, species, clues matched (with an incident), level, bar and
  /// label; with `explain`, one column per clue checked (✓ matched, ✗ not).
  static func table(_ ranking: [RankedSuspect], presenter: SuspectPresenter, explain: Bool = false)
    -> String
  {
    let checked = ranking.first?.clues.map(\.clue) ?? []
    var columns: [TextTable.Column] = [
      .init("RANK", alignment: .right), .init("SUSPECT"), .init("SPECIES"),
    ]
    if !checked.isEmpty { columns.append(.init("CLUES", alignment: .right)) }
    if explain { columns += checked.map { .init(header(for: $0)) } }
    columns += [.init("LEVEL", alignment: .right), .init("SUSPICION")]
    var table = TextTable(columns: columns)
    table.rows = ranking.map { row in
      var cells = [
        "\(row.rank)", SuspectPresenter.displayName(row.suspect), row.suspect.species,
      ]
      if !checked.isEmpty { cells.append("\(row.cluesMatched)/\(row.cluesChecked)") }
      if explain { cells += row.clues.map { $0.matched ? "✓" : "✗" } }
      cells += [
        SuspectPresenter.levelText(row.suspect.suspicionLevel),
        SuspectPresenter.suspicionText(row.suspect.suspicionLevel),
      ]
      return cells
    }
    let last = columns.count - 1
    return table.render(headerStyle: presenter.style.bold) { row, column, text in
      column == last ? presenter.colored(text, ranking[row].suspect.suspicionLevel.label) : text
    }
  }

  static func header(for clue: Clue) -> String {
    switch clue {
    case .pawSize: "PAW"
    case .favoriteFruit: "FAVOURITE"
    case .noAlibi: "NO ALIBI"
    case .awake: "AWAKE"
    }
  }
}
