import CaseStore
import CommandLineKit

/// `inspector show <animal> [--as-of TIME]`: the inspector view of one suspect
/// (docs/command-line.md "show"), now or as it stood then.
struct ShowCommand: InspectorCommand {
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

  func run(_ context: CommandContext) throws -> String {
    let suspect = try context.caseToRead(asOf: asOf).suspects.find(try context[animal])
    return SuspectOutput.render(suspect, context)
  }
}
