import CaseStore
import CommandLineKit

/// `inspector serve token revoke <name>`: the investigator's token signs nobody in any more.
struct ServeTokenRevokeCommand: WritingCommand {
  static let configuration = CommandConfiguration(
    name: "revoke",
    abstract: "Revoke an investigator's token for the desk.",
    discussion: """
      The token signs nobody in from now on, and a running server ends the sessions it \
      opened within ten seconds. An unknown name is refused (exit 65).
      """)

  let name = Argument<String>("name", help: "The investigator's name (ignoring case).")

  var declarations: [any CommandDeclaration] { [name] }

  func run(_ context: CommandContext, _ db: CaseWriter) throws -> String {
    InvestigatorOutput.renderRevoked(try db.investigators.revoke(name: try context[name]), context)
  }
}
