import SQLiteKit

// Many steps back (docs/history.md "Undo", "Redo", "Undo to a change set"): `undo` without an
// id walks back through the change sets not yet undone, `redo` reverts the last undos, and
// `undo --to ID` reverts everything after ID. Which change set an undo or redo reverted is
// recorded in `history_reverts` (migration 0017); the walk reads it through
// ``forEachChangeSetNewestFirst(excluding:_:)``.
//
// The walk, from the newest change set back: a change set reverted by an undo or redo that is
// itself in effect is not in effect (skipped, and what it reverted counts for nothing); an
// undo or redo in effect marks what it reverted. Change sets without changes (a prune's
// record) are passed over.

extension CaseHistory {
  /// What ``CaseTransaction/redo()`` did.
  public struct Redo: Sendable, Equatable {
    /// The undo that was reverted (its change set's id).
    public let undo: Int64
    /// The change sets that undo had reverted, ascending: one for `undo` and `undo ID`, every
    /// change set after ID for `undo --to ID`.
    public let redone: [Int64]
    /// The change set that records the redo.
    public let changeSet: Int64
    /// How many changes were reverted.
    public let changes: Int
  }

  /// What ``CaseTransaction/undo(to:)`` did.
  public struct UndoTo: Sendable, Equatable {
    /// The change set the rows were taken back to.
    public let to: Int64
    /// The change sets after ``to`` that were in effect and are now undone, ascending: those
    /// holding changes that no undo or redo in effect had reverted (an undo in effect is one:
    /// reverting it brings back what it undid).
    public let undone: [Int64]
    /// The change set that records the undo, or `nil` when every row changed after ``to``
    /// already stood as it did then (nothing was written).
    public let changeSet: Int64?
    /// How many rows were written: removed, updated or inserted (a suspect's cascade not
    /// counted); when the rows were taken back change by change (swapped names), how many
    /// changes were reverted.
    public let changes: Int
  }

  // MARK: - Walking back

  /// Reverts the next change set not yet undone (docs/history.md "Undo"): walking back from
  /// the newest change set, the first one in effect that holds changes and is not an undo (a
  /// redo is one to undo). The undo is recorded (note `undo of change set N` unless the unit's
  /// attribution gives one), so the next `undo` walks further back.
  ///
  /// A row the change set changed may be reverted when its latest recorded state equals its
  /// state right after that change set (``expectRevertible(_:excluding:)``), so undoing the
  /// three newest change sets in turn works when they changed the same row.
  ///
  /// - Returns: The reverted change set, the undo's change set and the number of changes.
  /// - Throws: ``CaseError/unknownChangeSet(_:)`` (`latest`) when no change set holds changes;
  ///   ``CaseError/nothingToUndo`` when every one is undone;
  ///   ``CaseError/undoConflict(changeSet:later:)`` when a later change set left one of its
  ///   rows otherwise; what ``revertChangeSet(_:)`` throws. Nothing is changed then.
  func undoNext() throws -> Undo {
    let current = try currentChangeSet()
    var undone: Set<Int64> = []
    var sawChanges = false
    var target: Int64?
    try forEachChangeSetNewestFirst(excluding: current) { set in
      guard set.isStacked else { return true }
      sawChanges = true
      guard !undone.contains(set.id) else { return true }
      guard set.kind == .undo else {
        target = set.id
        return false
      }
      undone.formUnion(set.reverted)
      return true
    }
    guard let target else {
      throw sawChanges ? CaseError.nothingToUndo : CaseError.unknownChangeSet("latest")
    }
    try expectRevertible(target, excluding: current)
    let changes = try revertChangeSet(target)
    if let current {
      try note("undo of change set \(target)", on: current)
      try recordReverts(by: current, kind: .undo, [target])
    }
    return Undo(undone: target, changeSet: current, changes: changes)
  }

  /// Reverts the last undo still in effect (docs/history.md "Redo"): walking back from the
  /// newest change set, past the redos in effect, the first undo in effect, unless a change
  /// set in effect that is neither an undo nor a redo (a new change) comes first. The redo is
  /// a change set of its own (note `redo of change set N`, or `redo of undo U` when the undo
  /// reverted several, unless the unit's attribution gives one) that `undo` can undo again.
  ///
  /// - Returns: The reverted undo, what it had undone, the redo's change set and the number of
  ///   changes.
  /// - Throws: ``CaseError/nothingToRedo(after:)`` when there is no undo to redo;
  ///   ``CaseError/undoConflict(changeSet:later:)`` (naming the undo) when a later change set
  ///   left one of its rows otherwise; what ``revertChangeSet(_:)`` throws. Nothing is
  ///   changed then.
  func redo() throws -> Redo {
    guard let current = try currentChangeSet() else {
      throw CaseError.historyDisagrees("redo runs outside a write unit of work")
    }
    var undone: Set<Int64> = []
    var found: StackedChangeSet?
    var newer: Int64?
    try forEachChangeSetNewestFirst(excluding: current) { set in
      guard set.isStacked, !undone.contains(set.id) else { return true }
      switch set.kind {
      case .redo:
        undone.formUnion(set.reverted)
        return true
      case .undo:
        found = set
      case nil:
        newer = set.id
      }
      return false
    }
    guard let undo = found else { throw CaseError.nothingToRedo(after: newer) }
    try expectRevertible(undo.id, excluding: current)
    let changes = try revertChangeSet(undo.id)
    let note =
      undo.reverted.count == 1
      ? "redo of change set \(undo.reverted[0])" : "redo of undo \(undo.id)"
    try self.note(note, on: current)
    try recordReverts(by: current, kind: .redo, [undo.id])
    return Redo(undo: undo.id, redone: undo.reverted, changeSet: current, changes: changes)
  }

  /// Takes every row changed after change set `id` back to how it stood right after `id`, in
  /// the running unit's one change set (docs/history.md "Undo to a change set"): each row that
  /// a change set after `id` changed (in effect or not) gets the state the history gives it as
  /// of `id`, so only the rows that differ are written, each once. Every such row is first
  /// checked against the history as ``revertChangeSet(_:)`` does; no later change set can
  /// conflict, as all of them are reverted. Recorded as an undo of every change set after `id`
  /// (note `undo of change sets after N` unless the unit's attribution gives one), so `redo`
  /// reverts it whole and `undo` walks on from `id`.
  ///
  /// - Parameter id: A change set the history holds (not the running unit's).
  /// - Returns: The change sets undone, the undo's change set (`nil` when no row differs from
  ///   how it stood then: nothing is written) and the number of rows written.
  /// - Throws: ``CaseError/unknownChangeSet(_:)`` when there is no such change set;
  ///   ``CaseError/undoUnexpectedRow(changeSet:row:problem:)``,
  ///   ``CaseError/undoBreaksReference(changeSet:problem:)``,
  ///   ``CaseError/historyDisagrees(_:)``, or `SQLiteError` when the schema refuses a row.
  ///   Nothing is changed then. When a row cannot take its old name before another row gives
  ///   it up (two suspects that swapped species), every change after `id` is reverted in turn
  ///   instead, newest first, as ``revertChangeSet(_:)`` reverts them; the count is then of
  ///   those changes.
  func undo(to id: Int64) throws -> UndoTo {
    let current = try currentChangeSet()
    guard id != current,
      try database.connection.scalar("SELECT 1 FROM history_change_sets WHERE id = ?", [id])
        != nil
    else { throw CaseError.unknownChangeSet("\(id)") }
    var undone: Set<Int64> = []
    var inEffect: [Int64] = []
    var withChanges: [Int64] = []
    try forEachChangeSetNewestFirst(excluding: current) { set in
      guard set.id > id else { return false }
      guard set.isStacked else { return true }
      if set.holdsChanges { withChanges.append(set.id) }
      guard !undone.contains(set.id) else { return true }
      undone.formUnion(set.reverted)
      inEffect.append(set.id)
      return true
    }
    var changes: Int
    do {
      changes = try database.connection.inSavepoint(named: "undo_to") {
        try restoreRows(changedBy: withChanges, asOf: id)
      }
    } catch let error as SQLiteError where error.extendedCode == .constraintUnique {
      // A name another row holds until a later row is written (two suspects that swapped
      // species): every change after ID is reverted in turn instead, newest first, so the rows
      // pass back through states the history recorded.
      changes = 0
      for changeSet in withChanges { changes += try revertChangeSet(changeSet) }
    }
    guard changes > 0, let current else {
      return UndoTo(to: id, undone: inEffect.reversed(), changeSet: nil, changes: 0)
    }
    try note("undo of change sets after \(id)", on: current)
    try recordReverts(by: current, kind: .undo, after: id)
    return UndoTo(to: id, undone: inEffect.reversed(), changeSet: current, changes: changes)
  }

  /// Writes every row that the change sets `changeSets` (newest first) changed back to its
  /// state as of change set `id`, after checking each against the history: removals first
  /// (children before parents), then updates of the columns that differ, then insertions
  /// (parents before children), each in the order the rows were first met (change sets newest
  /// first, each in recording order); foreign keys are deferred to the commit.
  ///
  /// Streams: the rows to restore, each once, are gathered by SQL into a temporary table
  /// (``UndoToRows``, in SQLite's temporary storage, not in memory), which is classified once
  /// and then read by phase, so memory does not grow with the rows; every write goes through
  /// the statement cache.
  ///
  /// - Returns: How many rows were written (removed, updated or inserted).
  /// - Throws: As ``undo(to:)``.
  private func restoreRows(changedBy changeSets: [Int64], asOf id: Int64) throws -> Int {
    let connection = database.connection
    try connection.execute("PRAGMA defer_foreign_keys = ON")
    let rows = try UndoToRows(connection)
    defer { rows.drop() }
    for changeSet in changeSets {
      try expectRowsAsRecorded(undoing: changeSet)
      try rows.add(changedIn: try ChangeSetBounds(connection: connection).changes(of: changeSet))
    }
    // The rows as they stood right after change set `id`: its last change, found once.
    let through = try Self.lastChange(connection, upTo: id)
    try rows.classify { table, key in
      let then = try recordedRow(table, key: key, through: through)
      let now = try liveRow(table, key: key)
      switch (then, now) {
      case (nil, nil): return .none
      case (nil, .some): return .removal
      case (.some, nil): return .insertion
      case (let then?, let now?):
        return then.contains { (now[$0.key] ?? .null) != $0.value } ? .update : .none
      }
    }
    var written = 0
    try rows.forEach(.removal) { table, key in
      // A suspect's cascade may have taken the row already.
      try database.execute(table.deleteRowStatement, table.key.map { key[$0] ?? .null })
      written += 1
    }
    try rows.forEach(.update) { table, key in
      written += 1
      guard let then = try recordedRow(table, key: key, through: through),
        let now = try liveRow(table, key: key)
      else { return }
      let columns = table.columns.filter { column in
        then[column].map { (now[column] ?? .null) != $0 } ?? false
      }
      guard !columns.isEmpty else { return }
      try database.execute(
        "UPDATE \"\(table.name)\" SET "
          + columns.map { "\"\($0)\" = ?" }.joined(separator: ", ")
          + " WHERE \(table.keyCondition)",
        columns.map { then[$0] ?? .null } + table.key.map { key[$0] ?? .null })
    }
    try rows.forEach(.insertion) { table, key in
      written += 1
      guard let then = try recordedRow(table, key: key, through: through) else { return }
      let columns = table.columns.filter { then[$0] != nil }
      try database.execute(
        "INSERT INTO \"\(table.name)\" ("
          + columns.map { "\"\($0)\"" }.joined(separator: ", ") + ") VALUES ("
          + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")",
        columns.map { then[$0] ?? .null })
    }
    // No row may be left naming a fruit or suspect that is gone.
    for changeSet in changeSets { try expectReferencesKept(undoing: changeSet) }
    return written
  }

  // MARK: - The value-based rule

  /// Refuses to revert change set `target` when a later change set (other than `excluded`)
  /// left one of its rows otherwise than `target` left it: each row `target` changed must
  /// hold, as the history says now, exactly what it held right after `target`, in every
  /// recorded column (docs/history.md "Undo"). A later change set that was undone since, or
  /// that set a row back to the same values, does not stand in the way.
  ///
  /// - Throws: ``CaseError/undoConflict(changeSet:later:)`` naming the later change sets that
  ///   changed the rows that differ; ``CaseError/historyDisagrees(_:)``; `SQLiteError`.
  func expectRevertible(_ target: Int64, excluding excluded: Int64?) throws {
    // Only the rows a later change set changed can differ: one look-up of them, not of every
    // row of the change set (an import's undo reads none).
    var conflicting: Set<Int64> = []
    let rows = try rowsChangedLater(than: target, excluding: excluded)
    // The rows as they stood right after `target`: its last change, found once.
    let through = rows.isEmpty ? 0 : try Self.lastChange(database.connection, upTo: target)
    for (table, key) in rows {
      let then = try recordedRow(table, key: key, through: through)
      let now = try recordedRow(table, key: key)
      guard then != now else { continue }
      conflicting.formUnion(
        try changeSets(touching: table, key: key, after: target, excluding: excluded))
    }
    guard conflicting.isEmpty else {
      throw CaseError.undoConflict(changeSet: target, later: conflicting.sorted())
    }
  }

  // MARK: - Helpers

  /// The change set of the write unit now running (`history_context`), or `nil` outside one.
  func currentChangeSet() throws -> Int64? {
    try database.connection.scalar("SELECT change_set_id FROM history_context")?.integerValue
  }

  /// Gives change set `id` the note `text` unless it has one (the unit's `--note`).
  private func note(_ text: String, on id: Int64) throws {
    try database.connection.execute(
      "UPDATE history_change_sets SET note = ? WHERE id = ? AND note IS NULL", [text, id])
  }
}
