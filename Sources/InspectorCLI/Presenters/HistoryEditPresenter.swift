import CaseStore

/// What the commands that rewrite the history report (docs/history.md): `undo` (`undone`,
/// `change_set`, `changes`) and `history prune` (`pruned`, `baseline`, `change_set`), each one
/// flat record: a JSON object, a CSV row under its header, a sentence for people.
enum HistoryEditPresenter {
  /// What `undo` did: `undone`, `change_set` (the change set that records the undo, null when
  /// there was nothing to undo), `changes`.
  static func render(_ undo: CaseHistory.Undo, _ context: CommandContext) -> String {
    Render.fields(
      [("undone", undo.undone), ("change_set", undo.changeSet), ("changes", undo.changes)],
      context
    ) {
      guard let recorded = undo.changeSet else {
        return "Change set \(undo.undone) holds no changes; nothing to undo."
      }
      return "Undid change set \(undo.undone) (\(undo.changes) change(s)),"
        + " recorded as change set \(recorded)."
    }
  }

  /// What `history prune` did: `pruned`, `baseline` (the change set holding the rows of then,
  /// or null), `change_set` (the prune's own, or null).
  static func render(_ prune: CaseHistory.Prune, _ context: CommandContext) -> String {
    Render.fields(
      [("pruned", prune.pruned), ("baseline", prune.baseline), ("change_set", prune.changeSet)],
      context
    ) {
      guard let recorded = prune.changeSet else { return "No change set is that old." }
      let baseline = prune.baseline.map { "; the rows of then are change set \($0)" } ?? ""
      return "Pruned \(prune.pruned) change set(s)\(baseline); recorded as change set \(recorded)."
    }
  }
}

extension HistoryEditPresenter {
  /// What `revert` did: `suspect` (its id), `as_of` (the change set it was brought back to),
  /// `change_set` (the revert's own, null when nothing changed) and `restored` (whether a
  /// removed suspect came back).
  static func render(_ revert: CaseHistory.Revert, _ context: CommandContext) -> String {
    Render.fields(
      [
        ("suspect", revert.suspect.id), ("as_of", revert.asOf),
        ("change_set", revert.changeSet), ("restored", revert.restored),
      ], context
    ) {
      let named =
        "\(revert.suspect.name) the \(revert.suspect.species) (id \(revert.suspect.id))"
      guard let recorded = revert.changeSet else {
        return "\(named) already stands as it did after change set \(revert.asOf);"
          + " nothing changed."
      }
      let verb = revert.restored ? "Brought back" : "Reverted"
      return "\(verb) \(named) as it stood after change set \(revert.asOf),"
        + " recorded as change set \(recorded)."
    }
  }
}
