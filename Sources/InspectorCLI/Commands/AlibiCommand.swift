import CaseStore
import CommandLineKit

/// `inspector alibi <animal> [TEXT | --clear]`: set, clear, or print the alibi.
struct AlibiCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "alibi",
    abstract: "Set, clear, or (without text) print a suspect's alibi.")

  let animal = Argument<String>.animal
  let text = Argument<String?>("text", help: "The alibi statement (may span lines).")
  let clear = Flag("clear", help: "Remove the alibi.")

  var declarations: [any CommandDeclaration] { [animal, text, clear] }

  func validate(_ context: CommandContext) throws(UsageError) {
    let text = try context[text]
    if context[clear] && text != nil {
      throw context.usageError("Give either <text> or --clear, not both")
    }
  }

  func run(_ context: CommandContext) throws -> String {
    let text = try context[self.text]
    let clear = context[self.clear]
    guard clear || text != nil else {
      let suspect = try context.openDatabase(write: false).suspects.find(try context[animal])
      return SuspectOutput.renderAlibi(suspect, context)
    }
    let suspect = try context.changeSuspect(try context[animal]) { database, id in
      try database.suspects.setAlibi(id: id, clear ? "" : text ?? "")
    }
    return SuspectOutput.render(suspect, context, after: .alibi)
  }
}
