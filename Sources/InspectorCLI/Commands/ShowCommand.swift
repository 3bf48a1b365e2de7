import CaseStore

/// `inspector show <animal>`: the inspector view of one suspect (README "A short tour").
struct ShowCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "show",
    abstract: "Show one suspect: identity and interview.")

  let animal = Argument<String>.animal

  func run(_ context: CommandContext) throws -> String {
    let suspect = try context.openDatabase(write: false).suspects.find(context[animal])
    return SuspectOutput.render(suspect, context)
  }
}
