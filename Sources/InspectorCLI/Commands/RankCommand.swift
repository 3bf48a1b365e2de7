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
    let listing = ListingWriter<RankedSuspect>(
      context, writeJSON: { Self.writeJSON($0, to: &$1, pretty: $2, indent: $3) },
      csvHeader: Self.csvHeader, writeCSV: { CSVWriter.appendRecord(Self.csvFields($0), to: &$1) },
      layout: { Self.tableLayout(firstPage: $0, presenter: presenter, explain: explain) })
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

  /// Appends ``json(_:)`` of `row` without building it; the same text.
  static func writeJSON(
    _ row: RankedSuspect, to output: inout UTF8Buffer, pretty: Bool, indent: Int
  ) {
    var object = JSONObjectWriter(pretty: pretty, indent: indent, to: &output)
    object.member(JSONKeys.rank, to: &output)
    output.append(row.rank)
    SuspectPresenter.writeJSONMembers(
      of: row.suspect, to: &object, &output, pretty: pretty, indent: indent)
    object.member(JSONKeys.cluesMatched, to: &output)
    output.append(row.cluesMatched)
    object.member(JSONKeys.cluesChecked, to: &output)
    output.append(row.cluesChecked)
    object.member(JSONKeys.clues, to: &output)
    if row.clues.isEmpty {
      output.append("null")
    } else {
      var clues = JSONObjectWriter(pretty: pretty, indent: indent + 1, to: &output)
      for verdict in row.clues {
        clues.member(verdict.clue.rawValue, to: &output)
        output.append(verdict.matched ? "true" : "false")
      }
      clues.finish(to: &output)
    }
    object.finish(to: &output)
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
    tableLayout(firstPage: ranking, presenter: presenter, explain: explain)
      .render(ranking, headerStyle: presenter.style.bold)
  }

  /// The layout of ``table(_:presenter:explain:)``; the clues checked are read off the first
  /// rows (every row of one ranking checks the same clues).
  static func tableLayout(
    firstPage: [RankedSuspect], presenter: SuspectPresenter, explain: Bool
  ) -> TableLayout<RankedSuspect> {
    let checked = firstPage.first?.clues.map(\.clue) ?? []
    var columns: [TextTable.Column] = [
      .init("RANK", alignment: .right), .init("SUSPECT"), .init("SPECIES"),
    ]
    if !checked.isEmpty { columns.append(.init("CLUES", alignment: .right)) }
    if explain { columns += checked.map { .init(header(for: $0)) } }
    columns += [.init("LEVEL", alignment: .right), .init("SUSPICION")]
    let last = columns.count - 1
    return TableLayout(
      columns: columns,
      cells: { row in
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
      },
      cellStyle: { row, column, text in
        column == last ? presenter.colored(text, row.suspect.suspicionLevel.label) : text
      })
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
