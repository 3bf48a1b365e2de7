-- Schema v22: history_changes loses its index on change_set_id.
--
-- Ids ascend with change sets: every change of a change set has a higher id than every change
-- of an earlier one (the triggers record each change into the newest change set; prune keeps
-- the ids it keeps). So change_set_id never decreases as id grows, and a change set's changes
-- are one range of ids, which inspector finds by a binary search over the table's own b-tree
-- (about log2 of the number of changes in seeks) instead of an index of its own.
--
-- The index held one entry per change, about a tenth of a case file loaded through plain SQL
-- (a million suspects: 76.6 MB of 716 MB), and a quarter of what recording a change cost in
-- instructions. Nothing else changes: no row, no id, no seal.

DROP INDEX IF EXISTS history_changes_change_set;
