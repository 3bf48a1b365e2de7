-- Schema v17: which change sets an undo or a redo reverted (docs/history.md "Undo", "Redo").
--
-- history_reverts: one row per change set that an undo or a redo of inspector's reverted,
-- written in the same transaction as the revert itself:
--   change_set_id: the undo's or the redo's own change set;
--   reverted_change_set_id: a change set it reverted: for an undo, the change set it undid
--     ('inspector undo', 'inspector undo ID'), or every change set after ID for
--     'inspector undo --to ID'; for a redo, the undo whose changes it reverted;
--   kind: 'undo' or 'redo'.
-- 'inspector undo' walks back from the newest change set: a change set reverted by an undo or
-- redo that is itself in effect is not in effect; the first change set in effect that holds
-- changes and is not an undo is the next to undo. 'inspector redo' reverts the first undo in
-- effect, walking back, unless a change set in effect that is neither an undo nor a redo comes
-- first. reverted_change_set_id has no foreign key: history prune may drop the change set an
-- undo it keeps had reverted (the rows of then are its baseline).

CREATE TABLE history_reverts (
  change_set_id INTEGER NOT NULL REFERENCES history_change_sets (id) ON DELETE CASCADE,
  reverted_change_set_id INTEGER NOT NULL CHECK (reverted_change_set_id < change_set_id),
  kind TEXT NOT NULL CHECK (kind IN ('undo', 'redo')),
  PRIMARY KEY (change_set_id, reverted_change_set_id)
) STRICT, WITHOUT ROWID;

-- Undos recorded before this migration: inspector gave each the note 'undo of change set N'
-- (N, an earlier change set) unless --note gave another, and nothing else recorded them. The
-- note is read here, once; from now on only this table says what an undo reverted.
INSERT INTO history_reverts (change_set_id, reverted_change_set_id, kind)
SELECT id, CAST(substr(note, 20) AS INTEGER), 'undo'
FROM history_change_sets
WHERE grouping = 'transaction' AND note GLOB 'undo of change set [1-9]*'
  AND note = 'undo of change set ' || CAST(substr(note, 20) AS INTEGER)
  AND CAST(substr(note, 20) AS INTEGER) < id
ORDER BY id;
