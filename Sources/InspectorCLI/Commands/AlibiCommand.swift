import CaseStore
import CommandLineKit

/// `inspector alibi <animal> [TEXT | --clear]`: set, clear, or print the alibi.
struct AlibiCommand: ReadingCommand, WritingCommand {
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

  /// Prints the alibi in a read unit of work, or sets or clears it in a write unit: which one
  /// the options choose.
  func run(_ context: CommandContext) throws -> String {
    let text = try context[self.text]
    guard context[clear] || text != nil else {
      return try context.caseFile.read { try run(context, $0) }
    }
    return try context.caseFile.write { try run(context, $0) }
  }

  /// Prints the alibi.
  func run(_ context: CommandContext, _ db: CaseReader) throws -> String {
    SuspectOutput.renderAlibi(try db.suspects.find(try context[animal]), context)
  }

  /// Sets or clears the alibi.
  func run(_ context: CommandContext, _ db: CaseWriter) throws -> String {
    let text = try context[self.text]
    let clear = context[self.clear]
    let suspect = try db.changeSuspect(try context[animal]) { id in
      try db.suspects.setAlibi(id: id, clear ? "" : text ?? "")
    }
    return SuspectOutput.render(suspect, context, after: .alibi)
  }
}
