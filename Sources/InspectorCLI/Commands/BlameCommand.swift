import CaseStore
import CommandLineKit

/// `inspector blame [<animal>] [--fruit F] [--incident ID]`: each field of one record now, with
/// the change set (id, time, actor, note) that last set it (docs/history.md "Blame").
struct BlameCommand: ReadingCommand {
  static let configuration = CommandConfiguration(
    name: "blame",
    abstract: "Show who last set each field of a suspect, fruit or incident, when and why.",
    discussion: """
      One row per field with its value now and the change set that last set it. A suspect's
      fields are its identity, each favourite (its fruit and its position, counting from 1),
      its alibi, sleep schedule and suspicion level; --fruit F gives a fruit's name and colour,
      --incident ID an incident's fields. A field the history never set says so: 'default'
      when there is no row (the field's default), 'unrecorded' when its value was written
      around the history's triggers. Give exactly one of <animal>, --fruit and --incident.
      """)

  let animal = Argument<String?>(
    "animal", help: "The suspect: its species, name or numeric id, or id:N.")
  let fruit = Option<String?>("fruit", valueName: "fruit", help: "A fruit instead, by name.")
  /// Checked by the case store (exit 65), so kept as text.
  let incident = Option<String?>(
    "incident", valueName: "id", help: "An incident instead, by id.")

  var declarations: [any CommandDeclaration] { [animal, fruit, incident] }

  func validate(_ context: CommandContext) throws(UsageError) {
    let given = [
      try context[animal] != nil, try context[fruit] != nil, try context[incident] != nil,
    ]
    guard given.filter({ $0 }).count == 1 else {
      throw context.usageError("Give exactly one of <animal>, --fruit and --incident")
    }
  }

  func run(_ context: CommandContext, _ db: CaseReader) throws -> String {
    let animal = try context[animal]
    let fruit = try context[fruit]
    let incident = try context[incident]
    let history = db.history
    let fields: [CaseHistory.BlamedField]
    if let animal {
      fields = try history.blame(suspect: try db.suspects.resolve(animal))
    } else if let fruit {
      fields = try history.blame(fruit: try db.fruits.find(fruit).id)
    } else {
      let text = incident ?? ""
      guard let id = Int64(text), id > 0 else { throw CaseError.unknownIncident(text) }
      fields = try history.blame(incident: id)
    }
    let writer = BlamePresenter.listing(context)
    try writer.write(fields)
    try writer.finish()
    return ""
  }
}
