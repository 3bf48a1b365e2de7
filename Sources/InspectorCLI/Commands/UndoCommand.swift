import CaseStore
import CommandLineKit

/// `inspector undo [ID | --to ID]`: revert one change set of the history, the next one not yet
/// undone, or everything after a change set (docs/history.md "Undo").
struct UndoCommand: WritingCommand {
  static let configuration = CommandConfiguration(
    name: "undo",
    abstract: "Revert one change set of the history (default: the next one not yet undone).",
    discussion: """
      The change set's changes are reverted in one transaction, which is recorded as a change
      set of its own (note 'undo of change set N' unless --note): an added row is removed, a
      removed row comes back with every recorded value (a suspect with its favourites and
      interview), a changed value gets its old value back. Without an id, undo walks back:
      each undo takes the newest change set that is not yet undone (an undo's own change set
      is not one), so undo, undo, undo reverts the three newest changes; 'inspector redo'
      steps forward again. --to ID takes every row changed after change set ID back to how it
      stood right after ID, in one change set. Refused (exit 65, nothing changed) when a
      later change set left a row otherwise than the change set to undo left it (the later
      ones are named), or when a row it would write is not as the history says (the row and
      both values are named).
      """)

  /// Checked by the case store (exit 65), so kept as text.
  let id = Argument<String?>(
    "id",
    help: "The change set's id, as 'inspector history' shows it (default: the next one not"
      + " yet undone).")
  /// Checked by the case store (exit 65), so kept as text.
  let to = Option<String?>(
    "to", valueName: "id", help: "Revert everything after change set ID, in one change set.")

  var declarations: [any CommandDeclaration] { [id, to] }

  func validate(_ context: CommandContext) throws(UsageError) {
    if try context[id] != nil, try context[to] != nil {
      throw context.usageError("Give either <id> or --to, not both")
    }
  }

  func run(_ context: CommandContext, _ db: CaseWriter) throws -> String {
    if let text = try context[to] {
      return HistoryEditPresenter.render(try db.undo(to: try Self.changeSet(text)), context)
    }
    let undo = try db.undo(try context[id].map(Self.changeSet))
    return HistoryEditPresenter.render(undo, context)
  }

  /// A change set id as given: a whole number from 1.
  ///
  /// - Throws: ``CaseError/unknownChangeSet(_:)`` for anything else.
  static func changeSet(_ text: String) throws -> Int64 {
    guard let number = Int64(text), number > 0 else { throw CaseError.unknownChangeSet(text) }
    return number
  }
}
