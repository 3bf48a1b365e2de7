import CaseStore
import CommandLineKit

/// `inspector history prune --before TIME`: drop the history before a time, keeping what the
/// rows were then (docs/history.md "Pruning").
struct HistoryPruneCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "prune",
    abstract: "Drop the history before a time, keeping the rows as they were then.",
    discussion: """
      The change sets recorded before TIME are replaced by one change set holding the rows as
      they stood then, so undo of later change sets, --as-of from then on and check stay
      right; what changed before TIME, and by whom, is gone. The prune itself is recorded (a
      change set with no changes, note 'history prune before TIME: N change set(s)' unless
      --note). TIME is YYYY-MM-DDTHH:MM[:SS] local, or ending in Z for UTC.
      """)

  /// Checked by the case store (exit 65), so kept as text.
  let before = Option<String>(
    "before", valueName: "time", help: "Drop the change sets recorded before TIME.")

  var declarations: [any CommandDeclaration] { [before] }

  func run(_ context: CommandContext) throws -> String {
    let prune = try context.openDatabase(write: true).history.prune(before: try context[before])
    return HistoryEditPresenter.render(prune, context)
  }
}
