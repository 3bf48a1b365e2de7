import CaseStore
import CommandLineKit

/// `inspector incident add --fruit F --at TIME [--paw P] [--lat X --lon Y] [--notes T]`.
struct IncidentAddCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "add",
    abstract: "Record a nibble incident (a Fruit Nibble Bulletin).")

  // The time and the coordinates stay text: the case store checks them (exit 65, not 64).
  let fruit = Option<String>("fruit", help: "The nibbled fruit.")
  let at = Option<String>(
    "at", valueName: "time", help: "When: HH:MM (today) or YYYY-MM-DDTHH:MM, local time.")
  let paw = Option<PawSize?>("paw", help: "The paw-size clue.")
  let lat = Option<String?>.latitude
  let lon = Option<String?>.longitude
  let notes = Option<String?>("notes", valueName: "text", help: "Free-text notes.")

  var declarations: [any CommandDeclaration] { [fruit, at, paw, lat, lon, notes] }

  func validate(_ context: CommandContext) throws(UsageError) {
    // Usage errors (64) before bad values (65).
    if (try context[lat] == nil) != (try context[lon] == nil) {
      throw context.usageError("--lat and --lon go together")
    }
  }

  func run(_ context: CommandContext) throws -> String {
    let occurredAt = try LocalDateTime(parsing: try context[at])
    var location: Location?
    if let lat = try context[lat], let lon = try context[lon] {
      location = try Location(parsingLatitude: lat, longitude: lon)
    }
    let incident = try context.openDatabase(write: true).incidents.add(
      NewIncident(
        fruit: try context[fruit], occurredAt: occurredAt, pawSize: try context[paw],
        location: location, notes: try context[notes] ?? ""))
    return IncidentPresenter.render(incident, context, after: .recorded)
  }
}
