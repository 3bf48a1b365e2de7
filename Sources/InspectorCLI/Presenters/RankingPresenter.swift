import CaseStore

/// Turns the suspicion ranking's rows into the output formats (docs/output-formats.md
/// "Ranking rows").
///
/// JSON: `rank`, the suspect's members (``SuspectPresenter/json``), `clues_matched`,
/// `clues_checked`, and `clues` (clue name to verdict, only the clues checked; null without an
/// incident). CSV: the same, with one `clue_<name>` column per clue (`true`/`false`, empty when
/// not checked). A table: rank, suspect, species, clues matched (with an incident), level, bar
/// and label; with `explain`, one column per clue checked (✓ matched, ✗ not).
enum RankingPresenter {
  /// The one JSON writer of a ranking row: `rank`'s array elements and NDJSON lines, `demo`'s
  /// `ranking`.
  static let json = JSONRecordWriter<RankedSuspect> { row, object, output in
    object.member("rank", row.rank, to: &output)
    SuspectPresenter.json.writeMembers(row.suspect, &object, &output)
    object.member("clues_matched", row.cluesMatched, to: &output)
    object.member("clues_checked", row.cluesChecked, to: &output)
    object.member("clues", row.clues.isEmpty ? nil : row.clues, cluesJSON, to: &output)
  }

  /// The clues checked, in order, as one object of clue name to verdict.
  static let cluesJSON = JSONRecordWriter<[ClueVerdict]> { clues, object, output in
    for verdict in clues {
      object.member(verdict.clue.rawValue, to: &output)
      output.append(verdict.matched ? "true" : "false")
    }
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

  /// A writer that streams a ranking as `rank` shows it, in the context's format.
  static func listing(
    _ context: CommandContext, presenter: SuspectPresenter, explain: Bool
  ) -> ListingWriter<RankedSuspect> {
    ListingWriter(
      context, json: json, csvHeader: csvHeader,
      writeCSV: { CSVWriter.appendRecord(csvFields($0), to: &$1) },
      layout: { tableLayout(firstPage: $0, presenter: presenter, explain: explain) })
  }

  /// The ranking table drawn whole (`incident show`, `demo`).
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

  /// A clue's column header in `--explain` tables.
  static func header(for clue: Clue) -> String {
    switch clue {
    case .pawSize: "PAW"
    case .favoriteFruit: "FAVOURITE"
    case .noAlibi: "NO ALIBI"
    case .awake: "AWAKE"
    }
  }
}
