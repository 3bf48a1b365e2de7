import CaseStore

/// `inspector alibi <animal> [TEXT | --clear]`: set, clear, or print the alibi.
struct AlibiCommand: InspectorCommand {
  static let spec = CommandSpec(
    name: "alibi",
    abstract: "Set, clear, or (without text) print a suspect's alibi.",
    arguments: [
      ShowCommand.animalArgument,
      ArgumentSpec("text", help: "The alibi statement (may span lines).", isOptional: true),
    ],
    options: [.flag("clear", help: "Remove the alibi.")])

  static func run(_ context: CommandContext) throws -> String {
    let text = context.arguments.argument("text")
    let clear = context.arguments.flag("clear")
    if clear && text != nil { throw context.usageError("Give either <text> or --clear, not both") }
    guard clear || text != nil else {
      let suspect = try context.openDatabase(write: false).suspects.find(
        context.argument("animal"))
      return Render.record(
        context, json: [("id", .integer(suspect.id)), ("alibi", .string(suspect.alibi))],
        csvHeader: ["id", "alibi"], csv: ["\(suspect.id)", suspect.alibi]
      ) {
        suspect.hasNoAlibi
          ? "\(SuspectPresenter.title(suspect)) has no alibi."
          : TextRules.displayable(suspect.alibi)
      }
    }
    let suspect = try context.changeSuspect { database, id in
      try database.suspects.setAlibi(id: id, clear ? "" : text ?? "")
    }
    let message =
      suspect.alibi.isEmpty
      ? "Cleared the alibi of \(SuspectPresenter.title(suspect))."
      : "Recorded the alibi of \(SuspectPresenter.title(suspect))."
    return SuspectOutput.render(suspect, context, message: message)
  }
}
