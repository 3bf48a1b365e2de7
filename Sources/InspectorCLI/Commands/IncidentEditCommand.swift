import CaseStore
import CommandLineKit

/// `inspector incident edit ID [--fruit F] [--at TIME] [--paw P | --no-paw]
/// [--lat X --lon Y | --no-place] [--notes T]`: the rules of `incident add`.
struct IncidentEditCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "edit",
    abstract: "Correct a bulletin: its fruit, time, paw-size clue, place or notes.")

  let id = Argument<IncidentID>("id", help: "The incident's id (a whole number, 1 or more).")
  // The time and the coordinates stay text: the case store checks them (exit 65, not 64).
  let fruit = Option<String?>("fruit", help: "The nibbled fruit.")
  let at = Option<String?>(
    "at", valueName: "time", help: "When: HH:MM (today) or YYYY-MM-DDTHH:MM, local time.")
  let paw = Option<PawSize?>("paw", help: "The paw-size clue.")
  let noPaw = Flag("no-paw", help: "Remove the paw-size clue.")
  let lat = Option<String?>.latitude
  let lon = Option<String?>.longitude
  let noPlace = Flag("no-place", help: "Remove the place (latitude and longitude).")
  let notes = Option<String?>(
    "notes", valueName: "text", help: "Free-text notes; an empty value clears them.")

  var declarations: [any CommandDeclaration] {
    [id, fruit, at, paw, noPaw, lat, lon, noPlace, notes]
  }

  func validate(_ context: CommandContext) throws(UsageError) {
    // Usage errors (64) before bad values (65).
    let paw = try context[paw]
    let lat = try context[lat]
    let lon = try context[lon]
    if paw != nil && context[noPaw] {
      throw context.usageError("Give either --paw or --no-paw")
    }
    if (lat == nil) != (lon == nil) {
      throw context.usageError("--lat and --lon go together")
    }
    if lat != nil && context[noPlace] {
      throw context.usageError("Give either --lat and --lon, or --no-place")
    }
    let fruit = try context[fruit]
    let at = try context[at]
    let notes = try context[notes]
    if fruit == nil && at == nil && paw == nil && !context[noPaw] && lat == nil
      && !context[noPlace] && notes == nil
    {
      throw context.usageError(
        "Nothing to change: give --fruit, --at, --paw, --no-paw, --lat and --lon, --no-place"
          + " or --notes")
    }
  }

  func run(_ context: CommandContext) throws -> String {
    var edit = IncidentEdit(fruit: try context[fruit], notes: try context[notes])
    edit.occurredAt = try context[at].map { try LocalDateTime(parsing: $0) }
    if context[noPaw] {
      edit.pawSize = .some(nil)
    } else if let paw = try context[paw] {
      edit.pawSize = paw
    }
    if context[noPlace] {
      edit.location = .some(nil)
    } else if let lat = try context[lat], let lon = try context[lon] {
      edit.location = try Location(parsingLatitude: lat, longitude: lon)
    }
    let incident = try context.openDatabase(write: true).incidents.edit(
      "\(try context[id].value)", edit)
    return IncidentPresenter.render(incident, context, after: .updated)
  }
}
