import CaseStore

/// Turns incidents into the output formats. JSON keys: `id`, `fruit` (null when the fruit row
/// is gone), `fruit_id`, `occurred_at` (`YYYY-MM-DDTHH:MM`), `paw_size` (or null), `latitude`,
/// `longitude` (or null), `notes`. A table shows a missing fruit as `(missing fruit id N)`.
struct IncidentPresenter {
  let style: OutputStyle

  static let csvHeader = [
    "id", "fruit", "fruit_id", "occurred_at", "paw_size", "latitude", "longitude", "notes",
  ]

  /// The one JSON writer of an incident: `incident list`'s array elements and NDJSON lines,
  /// the record of `incident show`, `add`, `edit` and `remove`, `demo`'s incident.
  static let json = JSONRecordWriter<Incident> { incident, object, output in
    object.member("id", incident.id, to: &output)
    object.member("fruit", incident.fruit, to: &output)
    object.member("fruit_id", incident.fruitID, to: &output)
    circumstancesJSON.writeMembers(incident, &object, &output)
  }

  /// The members that say when and where the fruit was nibbled, shared by the incident and the
  /// export document's incident: `occurred_at`, `paw_size`, `latitude`, `longitude`, `notes`.
  static let circumstancesJSON = JSONRecordWriter<Incident> { incident, object, output in
    object.member("occurred_at", incident.occurredAt.description, to: &output)
    object.member("paw_size", incident.pawSize?.rawValue, to: &output)
    object.member("latitude", incident.location?.latitude, to: &output)
    object.member("longitude", incident.location?.longitude, to: &output)
    object.member("notes", incident.notes, to: &output)
  }

  static func csvFields(_ incident: Incident) -> [String?] {
    [
      "\(incident.id)", incident.fruit, "\(incident.fruitID)", incident.occurredAt.description,
      incident.pawSize?.rawValue, incident.location.map { "\($0.latitude)" },
      incident.location.map { "\($0.longitude)" }, incident.notes,
    ]
  }

  /// What a command did to an incident: `incident add`, `edit`, `remove`.
  enum Change {
    case recorded, updated, removed
  }

  /// An incident a command recorded, changed or removed: the record in JSON and CSV, and
  /// `VERB incident N: FRUIT nibbled YYYY-MM-DD HH:MM.` as a table.
  static func render(_ incident: Incident, _ context: CommandContext, after change: Change)
    -> String
  {
    let verb =
      switch change {
      case .recorded: "Recorded"
      case .updated: "Updated"
      case .removed: "Removed"
      }
    return Render.record(
      incident, context, json: json, csvHeader: csvHeader, csv: csvFields(incident)
    ) {
      "\(verb) incident \(incident.id): \(fruit(incident)) nibbled \(when(incident))."
    }
  }

  /// What `incident show` prints: the record in JSON and CSV; as a table, the bulletin and its
  /// top suspects, `ranking` (each clue's verdict shown).
  static func page(
    _ incident: Incident, ranking: () throws -> [RankedSuspect], _ context: CommandContext
  ) rethrows -> String {
    guard context.format == .table else {
      return Render.record(
        incident, context, json: json, csvHeader: csvHeader, csv: csvFields(incident)
      ) { "" }
    }
    let style = context.style
    return IncidentPresenter(style: style).bulletin(incident) + "\n\n"
      + style.bold("Top suspects") + "\n"
      + RankingPresenter.table(
        try ranking(), presenter: SuspectPresenter(style: style), explain: true) + "\n"
  }

  /// The fruit's name, or `(missing fruit id N)` for a broken reference.
  static func fruit(_ incident: Incident) -> String {
    incident.fruit ?? "(missing fruit id \(incident.fruitID))"
  }

  /// Flags, on stderr, every incident whose fruit row is gone: the listing still shows it.
  static func warnAboutBrokenReferences(_ incidents: [Incident], _ context: CommandContext) {
    for incident in incidents where incident.fruit == nil {
      context.writeToStandardError(
        "warning: incident \(incident.id) refers to fruit id \(incident.fruitID), which does "
          + "not exist; see 'inspector check'\n")
    }
  }

  /// `2026-11-29 09:41`.
  static func when(_ incident: Incident) -> String {
    "\(incident.occurredAt.dateText) \(incident.occurredAt.time)"
  }

  /// The incident list table.
  func table(_ incidents: [Incident]) -> String {
    Self.tableLayout.render(incidents, headerStyle: style.bold)
  }

  /// The layout of ``table(_:)``, also used to stream `incident list`.
  static var tableLayout: TableLayout<Incident> {
    TableLayout(
      columns: [
        .init("ID", alignment: .right), .init("WHEN"), .init("FRUIT"), .init("PAW CLUE"),
        .init("PLACE"), .init("NOTES"),
      ],
      cells: { incident in
        [
          "\(incident.id)", when(incident), fruit(incident), incident.pawSize?.rawValue ?? "-",
          place(incident), shortened(incident.notes),
        ]
      })
  }

  /// A writer that streams incidents as `incident list` shows them, in the context's format.
  static func listing(_ context: CommandContext) -> ListingWriter<Incident> {
    ListingWriter(
      context, json: json, csvHeader: csvHeader, csv: csvFields, layout: { _ in tableLayout })
  }

  /// The bulletin page: fruit, time, clues, place and notes.
  func bulletin(_ incident: Incident) -> String {
    var lines = [style.bold("FRUIT NIBBLE BULLETIN #\(incident.id)")]
    let clue = incident.pawSize.map { "paw size \($0.rawValue)" } ?? "no paw print"
    lines += SuspectPresenter.fields([
      ("Fruit", Self.fruit(incident)), ("When", Self.when(incident)), ("Clues", clue),
      ("Place", Self.place(incident)), ("Notes", incident.notes.isEmpty ? "-" : incident.notes),
    ])
    return lines.joined(separator: "\n")
  }

  /// `37.334371, -122.009558`, or `-`.
  static func place(_ incident: Incident) -> String {
    incident.location.map { "\($0.latitude), \($0.longitude)" } ?? "-"
  }

  /// The first line of `text`, cut to 40 characters with `…`.
  static func shortened(_ text: String) -> String {
    let line = text.split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
    let more = line.count < text.count
    if line.count > 40 { return String(line.prefix(39)) + "…" }
    return more ? String(line) + " …" : String(line)
  }
}
