import CaseStore
import CommandLineKit

/// `inspector revert <animal> --as-of TIME|ID`: one suspect back to how it stood then, as one
/// new change set (docs/history.md "Revert").
struct RevertCommand: WritingCommand {
  static let configuration = CommandConfiguration(
    name: "revert",
    abstract: "Bring one suspect back to how it stood at a time or change set.",
    discussion: """
      The suspect's identity (name, species, paw size, emoji), its favourites in their order,
      and its interview (alibi, sleep schedule, suspicion level) are set to what they were right
      after that point, in one transaction recorded as one change set (note 'revert of ... to
      change set N' unless --note). A suspect removed since comes back under its id (name it as
      id:N). Refused (exit 65, nothing changed) when the suspect did not exist then, when a
      favourite fruit of then no longer exists, or when a value of then is refused now (its
      species is another suspect's).
      """)

  let animal = Argument<String>(
    "animal", help: "The suspect: its species, name or numeric id, or id:N (also removed).")
  /// Checked by the case store (exit 65), so kept as text.
  let asOf = Option<String>(
    "as-of", valueName: "time",
    help: "YYYY-MM-DDTHH:MM[:SS] local (or ending in Z for UTC), or a change set id.")

  var declarations: [any CommandDeclaration] { [animal, asOf] }

  func run(_ context: CommandContext, _ db: CaseWriter) throws -> String {
    let id = try db.history.resolveSuspect(try context[animal])
    let revert = try db.revert(suspect: id, asOf: try context[asOf])
    return HistoryEditPresenter.render(revert, context)
  }
}
