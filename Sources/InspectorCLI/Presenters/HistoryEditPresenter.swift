import CaseStore

/// What the commands that rewrite the history report (docs/history.md): `undo` (`undone`,
/// `change_set`, `changes`) and `history prune` (`pruned`, `baseline`, `change_set`), each one
/// record: a JSON object, a CSV row under its header, a sentence for people.
enum HistoryEditPresenter {
  /// The one JSON writer of `undo`'s report: `undone`, `change_set` (the change set that
  /// records the undo, null when there was nothing to undo), `changes`.
  static let undoJSON = JSONRecordWriter<CaseHistory.Undo> { undo, object, output in
    object.member("undone", undo.undone, to: &output)
    object.member("change_set", undo.changeSet, to: &output)
    object.member("changes", undo.changes, to: &output)
  }

  /// What `undo` did.
  static func render(_ undo: CaseHistory.Undo, _ context: CommandContext) -> String {
    Render.record(
      undo, context, json: undoJSON, csvHeader: ["undone", "change_set", "changes"],
      csv: ["\(undo.undone)", undo.changeSet.map { "\($0)" }, "\(undo.changes)"]
    ) {
      guard let recorded = undo.changeSet else {
        return "Change set \(undo.undone) holds no changes; nothing to undo."
      }
      return "Undid change set \(undo.undone) (\(undo.changes) change(s)),"
        + " recorded as change set \(recorded)."
    }
  }

  /// The one JSON writer of `history prune`'s report: `pruned`, `baseline` (the change set
  /// holding the rows of then, or null), `change_set` (the prune's own, or null).
  static let pruneJSON = JSONRecordWriter<CaseHistory.Prune> { prune, object, output in
    object.member("pruned", prune.pruned, to: &output)
    object.member("baseline", prune.baseline, to: &output)
    object.member("change_set", prune.changeSet, to: &output)
  }

  /// What `history prune` did.
  static func render(_ prune: CaseHistory.Prune, _ context: CommandContext) -> String {
    Render.record(
      prune, context, json: pruneJSON, csvHeader: ["pruned", "baseline", "change_set"],
      csv: ["\(prune.pruned)", prune.baseline.map { "\($0)" }, prune.changeSet.map { "\($0)" }]
    ) {
      guard let recorded = prune.changeSet else { return "No change set is that old." }
      let baseline = prune.baseline.map { "; the rows of then are change set \($0)" } ?? ""
      return "Pruned \(prune.pruned) change set(s)\(baseline); recorded as change set \(recorded)."
    }
  }
}
