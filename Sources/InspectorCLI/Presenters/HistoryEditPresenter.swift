import CaseStore

/// What the commands that rewrite the history report (docs/history.md): `undo` (`undone`,
/// `change_set`, `changes`), `undo --to` (`to`, `undone`, `change_set`, `changes`), `redo`
/// (`undo`, `change_set`, `changes`) and `history prune` (`pruned`, `baseline`, `change_set`),
/// each one flat record: a JSON object, a CSV row under its header, a sentence for people.
enum HistoryEditPresenter {
  /// What `undo` did: `undone`, `change_set` (the change set that records the undo, null when
  /// there was nothing to undo), `changes`.
  static func render(_ undo: CaseHistory.Undo, _ context: CommandContext) -> String {
    Render.fields(fields(undo), context) {
      guard let recorded = undo.changeSet else {
        return "Change set \(undo.undone) holds no changes; nothing to undo."
      }
      return "Undid change set \(undo.undone) (\(undo.changes) change(s)),"
        + " recorded as change set \(recorded)."
    }
  }

  /// The members of `undo`'s record, in order (also the desk's `POST /api/undo` answer).
  static func fields(_ undo: CaseHistory.Undo) -> [(key: String, value: any JSONScalar)] {
    [("undone", undo.undone), ("change_set", undo.changeSet), ("changes", undo.changes)]
  }

  /// What `undo --to ID` did: `to`, `undone` (how many change sets after it were in effect
  /// and are undone now), `change_set` (the undo's, null when no row differed from then),
  /// `changes` (rows written). The sentence names up to ten of those change sets, else the first and last.
  static func render(_ undo: CaseHistory.UndoTo, _ context: CommandContext) -> String {
    Render.fields(
      [
        ("to", undo.to), ("undone", undo.undone.count), ("change_set", undo.changeSet),
        ("changes", undo.changes),
      ], context
    ) {
      guard let recorded = undo.changeSet else {
        return "Every row changed after change set \(undo.to) stands as it did then;"
          + " nothing to undo."
      }
      // Up to ten change sets by id; more as the first and the last, with how many.
      let ids = undo.undone.map(String.init)
      let listed =
        ids.count <= 10
        ? ids.joined(separator: ", ") : "\(ids[0]) to \(ids[ids.count - 1]), \(ids.count) in all"
      let sets = ids.isEmpty ? "" : " (change set(s) \(listed))"
      return "Undid everything after change set \(undo.to)\(sets): \(undo.changes) change(s),"
        + " recorded as change set \(recorded)."
    }
  }

  /// What `redo` did: `undo` (the undo it reverted), `change_set` (the redo's), `changes`.
  static func render(_ redo: CaseHistory.Redo, _ context: CommandContext) -> String {
    Render.fields(
      [("undo", redo.undo), ("change_set", redo.changeSet), ("changes", redo.changes)], context
    ) {
      let what =
        redo.redone.count == 1
        ? "change set \(redo.redone[0]) (undone by change set \(redo.undo))"
        : "what change set \(redo.undo) undid"
      return "Redid \(what): \(redo.changes) change(s), recorded as change set \(redo.changeSet)."
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
