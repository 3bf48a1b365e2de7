import CaseStore

/// The tour of `inspector demo` (docs/command-line.md "demo"): the suspects, the latest bulletin
/// and its ranking. JSON: `database`, `suspects`, `incident` (or null), `ranking`, each record by
/// its type's one writer (NDJSON: the same document on one line); CSV: the suspects; a table: the
/// suspect table, the bulletin and the ranking with each clue's verdict.
enum DemoPresenter {
  /// What the tour shows.
  struct Tour: Sendable {
    /// The case file's path.
    let database: String
    /// Whether the table says the file was made (or filled) with the seed case just now.
    let announcesSeedCase: Bool
    let suspects: [Suspect]
    /// The latest incident, if any.
    let incident: Incident?
    /// The ranking for ``incident``, or by suspicion level without one.
    let ranking: [RankedSuspect]
  }

  /// The one JSON writer of the tour.
  static let json = JSONRecordWriter<Tour> { tour, object, output in
    object.member("database", tour.database, to: &output)
    object.member("suspects", tour.suspects, SuspectPresenter.json, to: &output)
    object.member("incident", tour.incident, IncidentPresenter.json, to: &output)
    object.member("ranking", tour.ranking, RankingPresenter.json, to: &output)
  }

  /// The tour in the context's format.
  static func render(_ tour: Tour, _ context: CommandContext) -> String {
    switch context.format {
    case .json, .ndjson:
      return json.document(tour, pretty: context.format == .json)
    case .csv:
      return SuspectPresenter.csv(tour.suspects)
    case .table:
      let presenter = SuspectPresenter(style: context.style)
      var text =
        tour.announcesSeedCase
        ? "Created \(tour.database) with the seed case.\n\n" : "Case file: \(tour.database)\n\n"
      text += context.style.bold("Suspects") + "\n" + presenter.table(tour.suspects) + "\n\n"
      if let incident = tour.incident {
        text += IncidentPresenter(style: context.style).bulletin(incident) + "\n\n"
        text += context.style.bold("Ranking for bulletin #\(incident.id)") + "\n"
        text += RankingPresenter.table(tour.ranking, presenter: presenter, explain: true) + "\n"
      } else {
        text += context.style.bold("Ranking by suspicion level") + "\n"
        text += RankingPresenter.table(tour.ranking, presenter: presenter) + "\n"
      }
      return text
    }
  }
}
