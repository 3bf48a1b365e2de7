import SQLiteKit

// The operations of a unit of work beyond the repositories: search, changesets, undo and
// prune. Each runs inside the unit's transaction and opens none of its own.

extension CaseTransaction {
  // MARK: - Reading

  /// The records matching `text`, most relevant first (FTS5's `bm25`; docs/search.md).
  ///
  /// - Parameters:
  ///   - text: Words to find (all of them, in any order, ignoring case and accents); with
  ///     `raw`, an FTS5 query (`"exact phrase"`, `pond OR lake`, `snail*`, `NEAR(a b)`).
  ///   - raw: Whether `text` is FTS5 query syntax; otherwise every word is quoted, so
  ///     quotes, `-`, `*` or `NEAR` in it are plain text.
  ///   - limit: How many hits at most (1 or more).
  ///   - marks: What goes before and after each matching word in ``SearchHit/text``.
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)`` when `text` has no word to
  ///   search for, or (raw) is not a valid FTS5 query; `SQLiteError` when the database cannot
  ///   be read.
  public func search(
    _ text: String, raw: Bool, limit: Int, marks: (open: String, close: String)
  ) throws -> [SearchHit] {
    try database.search(text, raw: raw, limit: limit, marks: marks)
  }

  /// How many changed records wait in `search_queue` to be indexed (another client's writes
  /// since the last write of inspector; docs/search.md).
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  public func pendingSearchChanges() throws -> Int {
    try database.pendingSearchChanges()
  }

  /// The changeset that turns the case file at `base` (e.g. a backup, or the copy an
  /// investigator took away) into this database, computed by SQLite's session extension
  /// (docs/changes.md). It reads both files on a connection of its own, which attaches `base`.
  ///
  /// - Throws: ``ChangesError/sessionExtensionMissing``, ``CaseFileError`` when `base` is
  ///   missing or not a case database, ``ChangesError/schemaMismatch(_:found:expected:)`` when
  ///   it is at another schema version, `SQLiteError` when a file cannot be read.
  public func changeset(since base: String) throws -> CaseChangeset {
    try database.changeset(since: base)
  }

  /// The records that differ between the case file at `base` and this database, as the
  /// changes that turn `base` into this database, in words and values (docs/changes.md).
  ///
  /// - Throws: What ``changeset(since:)`` throws.
  public func changes(since base: String) throws -> [RecordChange] {
    try database.changes(since: base)
  }

  /// The changes a changeset file holds, in words (suspects and fruits named from the changes
  /// themselves and from this database; docs/changes.md).
  ///
  /// - Parameters:
  ///   - changeset: The changeset file's contents.
  ///   - path: The file's name, for errors.
  /// - Throws: ``ChangesError/schemaMismatch(_:found:expected:)`` for a changeset taken at
  ///   another schema version, `SQLiteError` when the database cannot be read.
  public func changes(in changeset: CaseChangeset, path: String) throws -> [RecordChange] {
    try database.changes(in: changeset, path: path)
  }
}

extension CaseTransaction where Kind == Writing {
  // MARK: - Writing

  /// Brings the search index up to date with the records `search_queue` names and empties the
  /// queue (every write unit does the same before it commits; docs/search.md).
  ///
  /// - Returns: How many queued records were re-indexed.
  /// - Throws: `SQLiteError` when the index cannot be written (a damaged schema without the
  ///   index's tables).
  @discardableResult
  public func refreshSearchIndex() throws -> Int {
    try database.drainSearchQueue()
  }

  /// Applies a changeset file (docs/changes.md "Conflicts"): every change must be of a case
  /// table of this database's shape; conflicts are handled as `policy` says.
  ///
  /// - Parameters:
  ///   - changeset: The changes.
  ///   - path: The file's name, for errors.
  ///   - policy: What to do with conflicting changes.
  /// - Returns: How many changes were written and each conflict met, with what became of it.
  /// - Throws: ``ChangesError/foreignTables(_:tables:)``,
  ///   ``ChangesError/tableShape(_:table:found:expected:)``,
  ///   ``ChangesError/conflicts(_:policy:)``, ``ChangesError/schemaMismatch(_:found:expected:)``
  ///   or `SQLiteError`; the unit rolls back when the error leaves its body.
  public func apply(
    _ changeset: CaseChangeset, path: String, onConflict policy: ChangesetConflictPolicy
  ) throws -> ChangesetApplication {
    try database.apply(changeset, path: path, onConflict: policy)
  }

  /// Reverts one change set (docs/history.md "Undo"); this unit's change set records the undo
  /// (note `undo of change set N` unless the unit's attribution gives one).
  ///
  /// - Parameter id: The change set, or `nil` for the next one not yet undone: walking back
  ///   from the newest, past undos in effect and what they undid, the first change set in
  ///   effect that holds changes (a row it changed may then be reverted when it still holds
  ///   what that change set left).
  /// - Returns: The reverted change set, the undo's change set and the number of changes.
  /// - Throws: ``CaseError/unknownChangeSet(_:)``, ``CaseError/nothingToUndo``,
  ///   ``CaseError/undoConflict(changeSet:later:)``,
  ///   ``CaseError/undoUnexpectedRow(changeSet:row:problem:)``,
  ///   ``CaseError/undoBreaksReference(changeSet:problem:)``,
  ///   ``CaseError/historyDisagrees(_:)``, or `SQLiteError` when the schema refuses a row.
  @discardableResult
  public func undo(_ id: Int64? = nil) throws -> CaseHistory.Undo {
    try history.undo(id)
  }

  /// Reverts the last undo still in effect (docs/history.md "Redo"), as this unit's change
  /// set (note `redo of change set N` unless the unit's attribution gives one); `undo` can
  /// undo it again. Redo walks back past the redos in effect to the first undo in effect, and
  /// stops at a change set in effect that is neither (a new change).
  ///
  /// - Returns: The reverted undo, what it had undone, the redo's change set and the number of
  ///   changes.
  /// - Throws: ``CaseError/nothingToRedo(after:)``,
  ///   ``CaseError/undoConflict(changeSet:later:)`` (naming the undo),
  ///   ``CaseError/undoUnexpectedRow(changeSet:row:problem:)``,
  ///   ``CaseError/undoBreaksReference(changeSet:problem:)``,
  ///   ``CaseError/historyDisagrees(_:)``, or `SQLiteError` when the schema refuses a row.
  @discardableResult
  public func redo() throws -> CaseHistory.Redo {
    try history.redo()
  }

  /// Takes every row changed after change set `id` back to how it stood right after `id`
  /// (docs/history.md "Undo to a change set"), as this unit's one change set (note
  /// `undo of change sets after N` unless the unit's attribution gives one).
  ///
  /// - Parameter id: A change set of the history.
  /// - Returns: The change sets after `id` that were in effect, the undo's change set (`nil`
  ///   when nothing after `id` held changes) and the number of changes reverted.
  /// - Throws: ``CaseError/unknownChangeSet(_:)``,
  ///   ``CaseError/undoUnexpectedRow(changeSet:row:problem:)``,
  ///   ``CaseError/undoBreaksReference(changeSet:problem:)``,
  ///   ``CaseError/historyDisagrees(_:)``, or `SQLiteError` when the schema refuses a row.
  @discardableResult
  public func undo(to id: Int64) throws -> CaseHistory.UndoTo {
    try history.undo(to: id)
  }

  /// Drops the history before a time (docs/history.md "Pruning"): the change sets recorded
  /// before it become one baseline change set of the rows alive then; the prune is recorded
  /// as a change set with no changes (this unit's actor, its note or
  /// `history prune before TIME: N change set(s)`).
  ///
  /// - Parameter time: A time as ``CaseHistory/utcTime(parsing:)`` reads it.
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)`` for a malformed time;
  ///   ``CaseError/historyDisagrees(_:)`` for a history changed by hand; `SQLiteError`.
  public func pruneHistory(before time: String) throws -> CaseHistory.Prune {
    try history.prune(before: time)
  }
}
