import CaseStore

/// `inspector incident add --fruit F --at TIME [--paw P] [--lat X --lon Y] [--notes T]`.
struct IncidentAddCommand: InspectorCommand {
  static let spec = CommandSpec(
    name: "add",
    abstract: "Record a nibble incident (a Fruit Nibble Bulletin).",
    options: [
      .option("fruit", valueName: "fruit", help: "The nibbled fruit.", isRequired: true),
      .option(
        "at", valueName: "time", help: "When: HH:MM (today) or YYYY-MM-DDTHH:MM, local time.",
        isRequired: true),
      .option(
        "paw", valueName: "paw", help: "The paw-size clue.",
        allowedValues: PawSize.allCases.map(\.rawValue)),
      .option(
        "lat", valueName: "degrees",
        help: "Latitude, -90 to 90, in plain decimal notation such as 37.334371 (dot as"
          + " decimal, no exponent; with --lon)."),
      .option(
        "lon", valueName: "degrees",
        help: "Longitude, -180 to 180, in plain decimal notation such as -122.009558 (dot as"
          + " decimal, no exponent; with --lat)."),
      .option("notes", valueName: "text", help: "Free-text notes."),
    ])

  static func run(_ context: CommandContext) throws -> String {
    let arguments = context.arguments
    // Usage errors (64) before bad values (65).
    if (arguments.option("lat") == nil) != (arguments.option("lon") == nil) {
      throw context.usageError("--lat and --lon go together")
    }
    let occurredAt = try LocalDateTime(parsing: arguments.option("at") ?? "")
    let paw = try arguments.option("paw").map(PawSize.init(parsing:))
    var location: Location?
    if let lat = arguments.option("lat"), let lon = arguments.option("lon") {
      location = try Location(parsingLatitude: lat, longitude: lon)
    }
    let incident = try context.openDatabase(write: true).incidents.add(
      NewIncident(
        fruit: arguments.option("fruit") ?? "", occurredAt: occurredAt, pawSize: paw,
        location: location, notes: arguments.option("notes") ?? ""))
    return Render.record(
      context, json: IncidentPresenter.json(incident), csvHeader: IncidentPresenter.csvHeader,
      csv: IncidentPresenter.csvFields(incident)
    ) {
      "Recorded incident \(incident.id): \(IncidentPresenter.fruit(incident)) nibbled"
        + " \(IncidentPresenter.when(incident))."
    }
  }
}
