import CaseStore
import CommandLineKit

/// `inspector show <animal> [--as-of TIME]`: the inspector view of one suspect
/// (docs/command-line.md "show"), now or as it stood then.
struct ShowCommand: ReadingCommand {
  static let configuration = CommandConfiguration(
    name: "show",
    abstract: "Show one suspect: identity and interview.",
    discussion: """
      With --as-of, the suspect as it stood then, rebuilt from the case history (a removed
      suspect too, by name or id).
      """)

  let animal = Argument<String>.animal
  let asOf = Option<String?>.asOf

  var declarations: [any CommandDeclaration] { [animal, asOf] }

  func run(_ context: CommandContext, _ db: CaseReader) throws -> String {
    let reference = try context[animal]
    let suspect = try context.reading(db, asOf: asOf, suspect: reference) {
      try $0.suspects.find(reference)
    }
    return SuspectOutput.render(suspect, context)
  }
}
