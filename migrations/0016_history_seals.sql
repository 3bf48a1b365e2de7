-- Schema v16: the history's seals, a hash chain over its change sets (docs/history.md
-- "Tamper evidence").
--
-- history_seals: one row per sealed change set: its id and its seal, the SHA-256 of the
-- previous sealed change set's seal (32 zero bytes for the first) followed by the change set's
-- canonical content (its id, time, actor, note and grouping, then each of its changes in order
-- with every value as stored, then what an undo or a redo reverted (history_reverts); typed
-- and length-prefixed, so no two contents encode alike).
-- inspector seals, before each of its write transactions commits, every change set newer than
-- the newest seal, in id order: its own and those other clients recorded since. Nothing else
-- writes this table. A seal outlives its change set on purpose (no foreign key): a seal
-- whose change set is gone is how check finds a deleted change set.
--
-- The table starts empty; the first write after this migration seals the whole history.

CREATE TABLE history_seals (
  change_set_id INTEGER PRIMARY KEY,
  seal BLOB NOT NULL CHECK (length(seal) = 32)
) STRICT;
