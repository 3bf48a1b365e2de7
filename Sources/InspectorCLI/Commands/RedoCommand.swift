import CaseStore
import CommandLineKit

/// `inspector redo`: re-apply what the last undo reverted (docs/history.md "Redo").
struct RedoCommand: WritingCommand {
  static let configuration = CommandConfiguration(
    name: "redo",
    abstract: "Re-apply what the last undo reverted.",
    discussion: """
      Reverts the newest undo still in effect, in one transaction recorded as a change set of
      its own (note 'redo of change set N' unless --note), which 'inspector undo' can undo
      again. Each redo steps one undo further forward, newest undo first, until the change
      set that the first of those undos reverted is back. A new change (any change set that
      is neither an undo nor a redo) ends it: redo then finds nothing to redo (exit 65), as it
      does when no undo is in effect. Refused (exit 65, nothing changed) as undo is, naming
      the undo: when a later change set left a row otherwise than the undo left it, or a row
      it would write is not as the history says.
      """)

  var declarations: [any CommandDeclaration] { [] }

  func run(_ context: CommandContext, _ db: CaseWriter) throws -> String {
    HistoryEditPresenter.render(try db.redo(), context)
  }
}
