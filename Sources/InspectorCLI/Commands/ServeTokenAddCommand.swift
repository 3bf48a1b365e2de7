import CaseStore
import CommandLineKit

/// `inspector serve token add <name>`: a new personal access token for the desk, printed once
/// (docs/web-desk.md "Signing in, and who may do what").
struct ServeTokenAddCommand: WritingCommand {
  static let configuration = CommandConfiguration(
    name: "add",
    abstract: "Give an investigator a personal access token for the desk, printed only once.",
    discussion: """
      Only the token's SHA-256 is stored in the case file; keep the printed token, it cannot \
      be shown again. The name is the actor of every change the investigator makes in the \
      desk. A name that already has a token is refused (exit 65): revoke it first.
      """)

  let name = Argument<String>(
    "name", help: "The investigator's name: 1 to 64 characters, unique ignoring case.")

  var declarations: [any CommandDeclaration] { [name] }

  func run(_ context: CommandContext, _ db: CaseWriter) throws -> String {
    InvestigatorOutput.renderAdded(try db.investigators.add(name: try context[name]), context)
  }
}
