import CaseStore
import CommandLineKit

/// `inspector undo [ID]`: revert one change set of the history (docs/history.md "Undo").
struct UndoCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "undo",
    abstract: "Revert one change set of the history (default: the latest).",
    discussion: """
      The change set's changes are reverted in one transaction, which is recorded as a change
      set of its own (note 'undo of change set N' unless --note): an added row is removed, a
      removed row comes back with every recorded value (a suspect with its favourites and
      interview), a changed value gets its old value back. Refused (exit 65, nothing changed)
      when a later change set changed any of the same rows (the later ones are named), or when
      a row it would write is not as the history says (the row and both values are named).
      """)

  /// Checked by the case store (exit 65), so kept as text.
  let id = Argument<String?>(
    "id", help: "The change set's id, as 'inspector history' shows it (default: the latest).")

  var declarations: [any CommandDeclaration] { [id] }

  func run(_ context: CommandContext) throws -> String {
    var changeSet: Int64?
    if let text = try context[id] {
      guard let number = Int64(text), number > 0 else {
        throw CaseError.unknownChangeSet(text)
      }
      changeSet = number
    }
    let undo = try context.openDatabase(write: true).history.undo(changeSet)
    return HistoryEditPresenter.render(undo, context)
  }
}
