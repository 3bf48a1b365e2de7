import CaseStore

/// `inspector rank [--limit N | --all]`: the suspicion ranking (SPEC.md section 5).
struct RankCommand: InspectorCommand {
  static let spec = CommandSpec(
    name: "rank",
    abstract: "Rank the suspects, most suspicious first (the top 20 unless told otherwise).",
    options: [
      .option("limit", valueName: "n", help: "How many suspects to show (default 20)."),
      .flag("all", help: "Show every suspect."),
    ])

  static func run(_ context: CommandContext) throws -> String {
    let limit = try self.limit(context)
    let database = try context.openDatabase(write: false)
    let ranking = try SuspicionRanking(database: database).bySuspicionLevel(limit: limit)
    let presenter = SuspectPresenter(style: context.style)
    return Render.list(
      context, json: ranking.map(json), csvHeader: ["rank"] + SuspectPresenter.csvHeader,
      csv: ranking.map { ["\($0.rank)"] + SuspectPresenter.csvFields($0.suspect) }
    ) { table(ranking, presenter: presenter) }
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

  /// A ranking row: the suspect's object with `rank` first, and (no incident) `clues_matched`,
  /// `clues_checked` 0 and `clues` null (SPEC.md section 4).
  static func json(_ row: RankedSuspect) -> [(String, JSONValue)] {
    [("rank", .integer(Int64(row.rank)))] + SuspectPresenter.json(row.suspect) + [
      ("clues_matched", .integer(0)), ("clues_checked", .integer(0)), ("clues", .null),
    ]
  }

  /// The ranking table: rank, suspect, species, level, bar and label.
  static func table(_ ranking: [RankedSuspect], presenter: SuspectPresenter) -> String {
    var table = TextTable(
      columns: [
        .init("RANK", alignment: .right), .init("SUSPECT"), .init("SPECIES"),
        .init("LEVEL", alignment: .right), .init("SUSPICION"),
      ])
    table.rows = ranking.map { row in
      [
        "\(row.rank)", SuspectPresenter.displayName(row.suspect), row.suspect.species,
        "\(row.suspect.suspicionLevel.value)",
        SuspectPresenter.suspicionText(row.suspect.suspicionLevel),
      ]
    }
    return table.render(headerStyle: presenter.style.bold) { row, column, text in
      column == 4 ? presenter.colored(text, ranking[row].suspect.suspicionLevel.label) : text
    }
  }
}
