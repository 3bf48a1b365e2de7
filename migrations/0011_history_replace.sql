-- Schema v11: the history records the rows a REPLACE replaces or removes.
--
-- SQLite's REPLACE conflict resolution (INSERT OR REPLACE, REPLACE INTO, UPDATE OR REPLACE,
-- and any statement run under an outer OR REPLACE) deletes the row in the way without firing
-- its delete triggers unless the writer's connection has recursive_triggers on, which no one
-- can count on. 0007's triggers then recorded only the insert (or the update), and the history
-- forgot the row that was there: undo of the replacement deleted data, --as-of and check
-- believed it.
--
-- The insert and update triggers of each recorded table are recreated, identical to 0007's
-- but for what they record when the written key is one where the history's latest entry for
-- that table and key says a row still is (so a REPLACE removed that row):
--   - an insert records an 'update' of the row, from the values the history last knew (for
--     each column, the latest after value an insert or update of that key recorded) to the
--     new ones, only the columns that differ (nothing when none does), instead of an insert.
--     That is what the key saw: the same key with other values; undo writes the old values
--     back in place, so a suspect's favourites and interview, which a REPLACE with
--     foreign_keys off leaves pointing at the new row, are never removed by undo's cascade;
--   - an update that moves a row onto that key (UPDATE OR REPLACE) first records a 'delete'
--     of the row that was there, with the values the history last knew.
-- Both in the same change set, before the write's own entry. Each values statement runs only
-- when the entry statement just before it wrote a row (changes() = 1, allowed with
-- trusted_schema off), and keeps 0007's shape (the values straight from a UNION ALL), which
-- stores a REAL such as 1.0 as a REAL. They are AFTER triggers, so an
-- INSERT OR IGNORE that inserts nothing records nothing. Rows a cascade removes (foreign_keys
-- on) are recorded by their own delete triggers, as before.
--
-- Whether a row is at a key: the latest entry for the key (history_entries_row) is an insert
-- or update, and no later update moved the row away from it. An update that changes a row's
-- key now records the key it left in the new column old_row_key (NULL otherwise); this
-- migration fills it in for the updates recorded before it, from their key columns' before
-- values. Two index seeks per written row, whatever the history's length; the values of a
-- replaced row are looked up only when there is one. A REPLACE that collides on another
-- unique column (animals.species_key, fruits.name_key) removes a row under another key,
-- which the trigger cannot name; check reports it.

ALTER TABLE history_entries ADD COLUMN old_row_key TEXT;

UPDATE history_entries
SET old_row_key = printf('{"id":%d}',
  (SELECT before_value FROM history_values WHERE entry_id = history_entries.id AND ordinal = 0))
WHERE operation = 'update' AND table_name IN ('animals', 'fruits', 'incidents')
  AND EXISTS (SELECT 1 FROM history_values WHERE entry_id = history_entries.id AND ordinal = 0);
UPDATE history_entries
SET old_row_key = printf('{"animal_id":%d}',
  (SELECT before_value FROM history_values WHERE entry_id = history_entries.id AND ordinal = 0))
WHERE operation = 'update' AND table_name IN ('alibis', 'sleep_schedules', 'suspicion_levels')
  AND EXISTS (SELECT 1 FROM history_values WHERE entry_id = history_entries.id AND ordinal = 0);
UPDATE history_entries
SET old_row_key = printf('{"animal_id":%d,"fruit_id":%d}',
  coalesce((SELECT before_value FROM history_values
    WHERE entry_id = history_entries.id AND ordinal = 0), animal_id),
  coalesce((SELECT before_value FROM history_values
    WHERE entry_id = history_entries.id AND ordinal = 1), fruit_id))
WHERE operation = 'update' AND table_name = 'favorite_fruits'
  AND EXISTS (SELECT 1 FROM history_values
    WHERE entry_id = history_entries.id AND ordinal IN (0, 1));

CREATE INDEX history_entries_row ON history_entries (table_name, row_key);
CREATE INDEX history_entries_moved ON history_entries (table_name, old_row_key)
  WHERE old_row_key IS NOT NULL;

-- animals: id, name, species, paw_size, emoji (key id)
DROP TRIGGER history_animals_after_insert;
CREATE TRIGGER history_animals_after_insert AFTER INSERT ON animals
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  -- An insert, as 0007 records it, unless the history says a row is at this key.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'animals', printf('{"id":%d}', NEW.id), 'insert', NEW.id, NULL, NULL
  WHERE NOT coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'animals' AND row_key = printf('{"id":%d}', NEW.id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'animals' AND old_row_key = printf('{"id":%d}', NEW.id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update');
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'id' AS column_name, NULL AS before_value, NEW.id AS after_value
    UNION ALL SELECT 1, 'name', NULL, NEW.name
    UNION ALL SELECT 2, 'species', NULL, NEW.species
    UNION ALL SELECT 3, 'paw_size', NULL, NEW.paw_size
    UNION ALL SELECT 4, 'emoji', NULL, NEW.emoji)
  WHERE changes() = 1;
  -- Otherwise a REPLACE wrote this row over one the history holds (the old row went without
  -- a delete trigger; no values were just written, changes() = 0): an update from the values
  -- the history last knew, when any differs.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'animals', printf('{"id":%d}', NEW.id), 'update', NEW.id, NULL, NULL
  WHERE changes() = 0 AND coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'animals' AND row_key = printf('{"id":%d}', NEW.id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'animals' AND old_row_key = printf('{"id":%d}', NEW.id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update')
    AND ((SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 1
        WHERE e.table_name = 'animals' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'animals' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'animals'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) IS NOT NEW.name
      OR (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 2
        WHERE e.table_name = 'animals' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'animals' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'animals'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) IS NOT NEW.species
      OR (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 3
        WHERE e.table_name = 'animals' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'animals' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'animals'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) IS NOT NEW.paw_size
      OR (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 4
        WHERE e.table_name = 'animals' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'animals' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'animals'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) IS NOT NEW.emoji);
  -- changes(): the rows the statement just before this one wrote (the update entry, or none).
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 1 AS ordinal, 'name' AS column_name, (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 1
        WHERE e.table_name = 'animals' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'animals' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'animals'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) AS before_value, NEW.name AS after_value
    UNION ALL SELECT 2, 'species', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 2
        WHERE e.table_name = 'animals' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'animals' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'animals'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1), NEW.species
    UNION ALL SELECT 3, 'paw_size', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 3
        WHERE e.table_name = 'animals' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'animals' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'animals'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1), NEW.paw_size
    UNION ALL SELECT 4, 'emoji', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 4
        WHERE e.table_name = 'animals' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'animals' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'animals'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1), NEW.emoji)
  WHERE changes() = 1 AND before_value IS NOT after_value;
END;

DROP TRIGGER history_animals_after_update;
CREATE TRIGGER history_animals_after_update AFTER UPDATE ON animals
WHEN OLD.id IS NOT NEW.id
  OR OLD.name IS NOT NEW.name
  OR OLD.species IS NOT NEW.species
  OR OLD.paw_size IS NOT NEW.paw_size
  OR OLD.emoji IS NOT NEW.emoji
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  -- The row a REPLACE removed from this key without a delete trigger, as the history last
  -- knew it.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'animals', printf('{"id":%d}', NEW.id), 'delete', NEW.id, NULL, NULL
  WHERE (OLD.id IS NOT NEW.id)
    AND coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'animals' AND row_key = printf('{"id":%d}', NEW.id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'animals' AND old_row_key = printf('{"id":%d}', NEW.id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update');
  -- changes(): the rows the statement just before this one wrote (the delete entry, or none).
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, NULL
  FROM (
    SELECT 0 AS ordinal, 'id' AS column_name, NEW.id AS before_value
    UNION ALL SELECT 1, 'name', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 1
        WHERE e.table_name = 'animals' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'animals' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'animals'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1)
    UNION ALL SELECT 2, 'species', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 2
        WHERE e.table_name = 'animals' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'animals' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'animals'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1)
    UNION ALL SELECT 3, 'paw_size', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 3
        WHERE e.table_name = 'animals' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'animals' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'animals'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1)
    UNION ALL SELECT 4, 'emoji', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 4
        WHERE e.table_name = 'animals' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'animals' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'animals'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1))
  WHERE changes() = 1;
  -- old_row_key: the key a row left, so the key counts as free again.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id, old_row_key)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'animals', printf('{"id":%d}', NEW.id), 'update', NEW.id, NULL, NULL,
    CASE WHEN OLD.id IS NOT NEW.id THEN printf('{"id":%d}', OLD.id) END);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'id' AS column_name, OLD.id AS before_value, NEW.id AS after_value
    UNION ALL SELECT 1, 'name', OLD.name, NEW.name
    UNION ALL SELECT 2, 'species', OLD.species, NEW.species
    UNION ALL SELECT 3, 'paw_size', OLD.paw_size, NEW.paw_size
    UNION ALL SELECT 4, 'emoji', OLD.emoji, NEW.emoji)
  WHERE before_value IS NOT after_value;
END;

-- fruits: id, name, color (key id)
DROP TRIGGER history_fruits_after_insert;
CREATE TRIGGER history_fruits_after_insert AFTER INSERT ON fruits
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  -- An insert, as 0007 records it, unless the history says a row is at this key.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'fruits', printf('{"id":%d}', NEW.id), 'insert', NULL, NEW.id, NULL
  WHERE NOT coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'fruits' AND row_key = printf('{"id":%d}', NEW.id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'fruits' AND old_row_key = printf('{"id":%d}', NEW.id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update');
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'id' AS column_name, NULL AS before_value, NEW.id AS after_value
    UNION ALL SELECT 1, 'name', NULL, NEW.name
    UNION ALL SELECT 2, 'color', NULL, NEW.color)
  WHERE changes() = 1;
  -- Otherwise a REPLACE wrote this row over one the history holds (the old row went without
  -- a delete trigger; no values were just written, changes() = 0): an update from the values
  -- the history last knew, when any differs.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'fruits', printf('{"id":%d}', NEW.id), 'update', NULL, NEW.id, NULL
  WHERE changes() = 0 AND coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'fruits' AND row_key = printf('{"id":%d}', NEW.id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'fruits' AND old_row_key = printf('{"id":%d}', NEW.id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update')
    AND ((SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 1
        WHERE e.table_name = 'fruits' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'fruits' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'fruits'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) IS NOT NEW.name
      OR (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 2
        WHERE e.table_name = 'fruits' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'fruits' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'fruits'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) IS NOT NEW.color);
  -- changes(): the rows the statement just before this one wrote (the update entry, or none).
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 1 AS ordinal, 'name' AS column_name, (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 1
        WHERE e.table_name = 'fruits' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'fruits' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'fruits'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) AS before_value, NEW.name AS after_value
    UNION ALL SELECT 2, 'color', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 2
        WHERE e.table_name = 'fruits' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'fruits' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'fruits'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1), NEW.color)
  WHERE changes() = 1 AND before_value IS NOT after_value;
END;

DROP TRIGGER history_fruits_after_update;
CREATE TRIGGER history_fruits_after_update AFTER UPDATE ON fruits
WHEN OLD.id IS NOT NEW.id
  OR OLD.name IS NOT NEW.name
  OR OLD.color IS NOT NEW.color
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  -- The row a REPLACE removed from this key without a delete trigger, as the history last
  -- knew it.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'fruits', printf('{"id":%d}', NEW.id), 'delete', NULL, NEW.id, NULL
  WHERE (OLD.id IS NOT NEW.id)
    AND coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'fruits' AND row_key = printf('{"id":%d}', NEW.id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'fruits' AND old_row_key = printf('{"id":%d}', NEW.id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update');
  -- changes(): the rows the statement just before this one wrote (the delete entry, or none).
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, NULL
  FROM (
    SELECT 0 AS ordinal, 'id' AS column_name, NEW.id AS before_value
    UNION ALL SELECT 1, 'name', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 1
        WHERE e.table_name = 'fruits' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'fruits' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'fruits'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1)
    UNION ALL SELECT 2, 'color', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 2
        WHERE e.table_name = 'fruits' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'fruits' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'fruits'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1))
  WHERE changes() = 1;
  -- old_row_key: the key a row left, so the key counts as free again.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id, old_row_key)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'fruits', printf('{"id":%d}', NEW.id), 'update', NULL, NEW.id, NULL,
    CASE WHEN OLD.id IS NOT NEW.id THEN printf('{"id":%d}', OLD.id) END);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'id' AS column_name, OLD.id AS before_value, NEW.id AS after_value
    UNION ALL SELECT 1, 'name', OLD.name, NEW.name
    UNION ALL SELECT 2, 'color', OLD.color, NEW.color)
  WHERE before_value IS NOT after_value;
END;

-- favorite_fruits: animal_id, fruit_id, position (key animal_id, fruit_id)
DROP TRIGGER history_favorite_fruits_after_insert;
CREATE TRIGGER history_favorite_fruits_after_insert AFTER INSERT ON favorite_fruits
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  -- An insert, as 0007 records it, unless the history says a row is at this key.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'favorite_fruits', printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id), 'insert', NEW.animal_id, NEW.fruit_id, NULL
  WHERE NOT coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'favorite_fruits' AND row_key = printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'favorite_fruits' AND old_row_key = printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update');
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, NULL AS before_value, NEW.animal_id AS after_value
    UNION ALL SELECT 1, 'fruit_id', NULL, NEW.fruit_id
    UNION ALL SELECT 2, 'position', NULL, NEW.position)
  WHERE changes() = 1;
  -- Otherwise a REPLACE wrote this row over one the history holds (the old row went without
  -- a delete trigger; no values were just written, changes() = 0): an update from the values
  -- the history last knew, when any differs.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'favorite_fruits', printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id), 'update', NEW.animal_id, NEW.fruit_id, NULL
  WHERE changes() = 0 AND coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'favorite_fruits' AND row_key = printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'favorite_fruits' AND old_row_key = printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update')
    AND ((SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 2
        WHERE e.table_name = 'favorite_fruits' AND e.row_key = printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'favorite_fruits' AND old_row_key = printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'favorite_fruits'
              AND row_key = printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) IS NOT NEW.position);
  -- changes(): the rows the statement just before this one wrote (the update entry, or none).
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 2 AS ordinal, 'position' AS column_name, (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 2
        WHERE e.table_name = 'favorite_fruits' AND e.row_key = printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'favorite_fruits' AND old_row_key = printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'favorite_fruits'
              AND row_key = printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) AS before_value, NEW.position AS after_value)
  WHERE changes() = 1 AND before_value IS NOT after_value;
END;

DROP TRIGGER history_favorite_fruits_after_update;
CREATE TRIGGER history_favorite_fruits_after_update AFTER UPDATE ON favorite_fruits
WHEN OLD.animal_id IS NOT NEW.animal_id
  OR OLD.fruit_id IS NOT NEW.fruit_id
  OR OLD.position IS NOT NEW.position
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  -- The row a REPLACE removed from this key without a delete trigger, as the history last
  -- knew it.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'favorite_fruits', printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id), 'delete', NEW.animal_id, NEW.fruit_id, NULL
  WHERE (OLD.animal_id IS NOT NEW.animal_id OR OLD.fruit_id IS NOT NEW.fruit_id)
    AND coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'favorite_fruits' AND row_key = printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'favorite_fruits' AND old_row_key = printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update');
  -- changes(): the rows the statement just before this one wrote (the delete entry, or none).
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, NULL
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, NEW.animal_id AS before_value
    UNION ALL SELECT 1, 'fruit_id', NEW.fruit_id
    UNION ALL SELECT 2, 'position', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 2
        WHERE e.table_name = 'favorite_fruits' AND e.row_key = printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'favorite_fruits' AND old_row_key = printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'favorite_fruits'
              AND row_key = printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1))
  WHERE changes() = 1;
  -- old_row_key: the key a row left, so the key counts as free again.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id, old_row_key)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'favorite_fruits', printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id), 'update', NEW.animal_id, NEW.fruit_id, NULL,
    CASE WHEN OLD.animal_id IS NOT NEW.animal_id OR OLD.fruit_id IS NOT NEW.fruit_id THEN printf('{"animal_id":%d,"fruit_id":%d}', OLD.animal_id, OLD.fruit_id) END);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, OLD.animal_id AS before_value, NEW.animal_id AS after_value
    UNION ALL SELECT 1, 'fruit_id', OLD.fruit_id, NEW.fruit_id
    UNION ALL SELECT 2, 'position', OLD.position, NEW.position)
  WHERE before_value IS NOT after_value;
END;

-- alibis: animal_id, statement (key animal_id)
DROP TRIGGER history_alibis_after_insert;
CREATE TRIGGER history_alibis_after_insert AFTER INSERT ON alibis
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  -- An insert, as 0007 records it, unless the history says a row is at this key.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'alibis', printf('{"animal_id":%d}', NEW.animal_id), 'insert', NEW.animal_id, NULL, NULL
  WHERE NOT coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'alibis' AND row_key = printf('{"animal_id":%d}', NEW.animal_id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'alibis' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update');
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, NULL AS before_value, NEW.animal_id AS after_value
    UNION ALL SELECT 1, 'statement', NULL, NEW.statement)
  WHERE changes() = 1;
  -- Otherwise a REPLACE wrote this row over one the history holds (the old row went without
  -- a delete trigger; no values were just written, changes() = 0): an update from the values
  -- the history last knew, when any differs.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'alibis', printf('{"animal_id":%d}', NEW.animal_id), 'update', NEW.animal_id, NULL, NULL
  WHERE changes() = 0 AND coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'alibis' AND row_key = printf('{"animal_id":%d}', NEW.animal_id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'alibis' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update')
    AND ((SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 1
        WHERE e.table_name = 'alibis' AND e.row_key = printf('{"animal_id":%d}', NEW.animal_id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'alibis' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'alibis'
              AND row_key = printf('{"animal_id":%d}', NEW.animal_id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) IS NOT NEW.statement);
  -- changes(): the rows the statement just before this one wrote (the update entry, or none).
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 1 AS ordinal, 'statement' AS column_name, (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 1
        WHERE e.table_name = 'alibis' AND e.row_key = printf('{"animal_id":%d}', NEW.animal_id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'alibis' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'alibis'
              AND row_key = printf('{"animal_id":%d}', NEW.animal_id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) AS before_value, NEW.statement AS after_value)
  WHERE changes() = 1 AND before_value IS NOT after_value;
END;

DROP TRIGGER history_alibis_after_update;
CREATE TRIGGER history_alibis_after_update AFTER UPDATE ON alibis
WHEN OLD.animal_id IS NOT NEW.animal_id
  OR OLD.statement IS NOT NEW.statement
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  -- The row a REPLACE removed from this key without a delete trigger, as the history last
  -- knew it.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'alibis', printf('{"animal_id":%d}', NEW.animal_id), 'delete', NEW.animal_id, NULL, NULL
  WHERE (OLD.animal_id IS NOT NEW.animal_id)
    AND coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'alibis' AND row_key = printf('{"animal_id":%d}', NEW.animal_id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'alibis' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update');
  -- changes(): the rows the statement just before this one wrote (the delete entry, or none).
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, NULL
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, NEW.animal_id AS before_value
    UNION ALL SELECT 1, 'statement', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 1
        WHERE e.table_name = 'alibis' AND e.row_key = printf('{"animal_id":%d}', NEW.animal_id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'alibis' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'alibis'
              AND row_key = printf('{"animal_id":%d}', NEW.animal_id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1))
  WHERE changes() = 1;
  -- old_row_key: the key a row left, so the key counts as free again.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id, old_row_key)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'alibis', printf('{"animal_id":%d}', NEW.animal_id), 'update', NEW.animal_id, NULL, NULL,
    CASE WHEN OLD.animal_id IS NOT NEW.animal_id THEN printf('{"animal_id":%d}', OLD.animal_id) END);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, OLD.animal_id AS before_value, NEW.animal_id AS after_value
    UNION ALL SELECT 1, 'statement', OLD.statement, NEW.statement)
  WHERE before_value IS NOT after_value;
END;

-- sleep_schedules: animal_id, sleep_at, wake_at (key animal_id)
DROP TRIGGER history_sleep_schedules_after_insert;
CREATE TRIGGER history_sleep_schedules_after_insert AFTER INSERT ON sleep_schedules
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  -- An insert, as 0007 records it, unless the history says a row is at this key.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'sleep_schedules', printf('{"animal_id":%d}', NEW.animal_id), 'insert', NEW.animal_id, NULL, NULL
  WHERE NOT coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'sleep_schedules' AND row_key = printf('{"animal_id":%d}', NEW.animal_id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'sleep_schedules' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update');
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, NULL AS before_value, NEW.animal_id AS after_value
    UNION ALL SELECT 1, 'sleep_at', NULL, NEW.sleep_at
    UNION ALL SELECT 2, 'wake_at', NULL, NEW.wake_at)
  WHERE changes() = 1;
  -- Otherwise a REPLACE wrote this row over one the history holds (the old row went without
  -- a delete trigger; no values were just written, changes() = 0): an update from the values
  -- the history last knew, when any differs.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'sleep_schedules', printf('{"animal_id":%d}', NEW.animal_id), 'update', NEW.animal_id, NULL, NULL
  WHERE changes() = 0 AND coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'sleep_schedules' AND row_key = printf('{"animal_id":%d}', NEW.animal_id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'sleep_schedules' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update')
    AND ((SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 1
        WHERE e.table_name = 'sleep_schedules' AND e.row_key = printf('{"animal_id":%d}', NEW.animal_id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'sleep_schedules' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'sleep_schedules'
              AND row_key = printf('{"animal_id":%d}', NEW.animal_id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) IS NOT NEW.sleep_at
      OR (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 2
        WHERE e.table_name = 'sleep_schedules' AND e.row_key = printf('{"animal_id":%d}', NEW.animal_id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'sleep_schedules' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'sleep_schedules'
              AND row_key = printf('{"animal_id":%d}', NEW.animal_id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) IS NOT NEW.wake_at);
  -- changes(): the rows the statement just before this one wrote (the update entry, or none).
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 1 AS ordinal, 'sleep_at' AS column_name, (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 1
        WHERE e.table_name = 'sleep_schedules' AND e.row_key = printf('{"animal_id":%d}', NEW.animal_id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'sleep_schedules' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'sleep_schedules'
              AND row_key = printf('{"animal_id":%d}', NEW.animal_id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) AS before_value, NEW.sleep_at AS after_value
    UNION ALL SELECT 2, 'wake_at', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 2
        WHERE e.table_name = 'sleep_schedules' AND e.row_key = printf('{"animal_id":%d}', NEW.animal_id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'sleep_schedules' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'sleep_schedules'
              AND row_key = printf('{"animal_id":%d}', NEW.animal_id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1), NEW.wake_at)
  WHERE changes() = 1 AND before_value IS NOT after_value;
END;

DROP TRIGGER history_sleep_schedules_after_update;
CREATE TRIGGER history_sleep_schedules_after_update AFTER UPDATE ON sleep_schedules
WHEN OLD.animal_id IS NOT NEW.animal_id
  OR OLD.sleep_at IS NOT NEW.sleep_at
  OR OLD.wake_at IS NOT NEW.wake_at
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  -- The row a REPLACE removed from this key without a delete trigger, as the history last
  -- knew it.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'sleep_schedules', printf('{"animal_id":%d}', NEW.animal_id), 'delete', NEW.animal_id, NULL, NULL
  WHERE (OLD.animal_id IS NOT NEW.animal_id)
    AND coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'sleep_schedules' AND row_key = printf('{"animal_id":%d}', NEW.animal_id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'sleep_schedules' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update');
  -- changes(): the rows the statement just before this one wrote (the delete entry, or none).
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, NULL
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, NEW.animal_id AS before_value
    UNION ALL SELECT 1, 'sleep_at', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 1
        WHERE e.table_name = 'sleep_schedules' AND e.row_key = printf('{"animal_id":%d}', NEW.animal_id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'sleep_schedules' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'sleep_schedules'
              AND row_key = printf('{"animal_id":%d}', NEW.animal_id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1)
    UNION ALL SELECT 2, 'wake_at', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 2
        WHERE e.table_name = 'sleep_schedules' AND e.row_key = printf('{"animal_id":%d}', NEW.animal_id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'sleep_schedules' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'sleep_schedules'
              AND row_key = printf('{"animal_id":%d}', NEW.animal_id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1))
  WHERE changes() = 1;
  -- old_row_key: the key a row left, so the key counts as free again.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id, old_row_key)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'sleep_schedules', printf('{"animal_id":%d}', NEW.animal_id), 'update', NEW.animal_id, NULL, NULL,
    CASE WHEN OLD.animal_id IS NOT NEW.animal_id THEN printf('{"animal_id":%d}', OLD.animal_id) END);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, OLD.animal_id AS before_value, NEW.animal_id AS after_value
    UNION ALL SELECT 1, 'sleep_at', OLD.sleep_at, NEW.sleep_at
    UNION ALL SELECT 2, 'wake_at', OLD.wake_at, NEW.wake_at)
  WHERE before_value IS NOT after_value;
END;

-- suspicion_levels: animal_id, level (key animal_id)
DROP TRIGGER history_suspicion_levels_after_insert;
CREATE TRIGGER history_suspicion_levels_after_insert AFTER INSERT ON suspicion_levels
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  -- An insert, as 0007 records it, unless the history says a row is at this key.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'suspicion_levels', printf('{"animal_id":%d}', NEW.animal_id), 'insert', NEW.animal_id, NULL, NULL
  WHERE NOT coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'suspicion_levels' AND row_key = printf('{"animal_id":%d}', NEW.animal_id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'suspicion_levels' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update');
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, NULL AS before_value, NEW.animal_id AS after_value
    UNION ALL SELECT 1, 'level', NULL, NEW.level)
  WHERE changes() = 1;
  -- Otherwise a REPLACE wrote this row over one the history holds (the old row went without
  -- a delete trigger; no values were just written, changes() = 0): an update from the values
  -- the history last knew, when any differs.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'suspicion_levels', printf('{"animal_id":%d}', NEW.animal_id), 'update', NEW.animal_id, NULL, NULL
  WHERE changes() = 0 AND coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'suspicion_levels' AND row_key = printf('{"animal_id":%d}', NEW.animal_id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'suspicion_levels' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update')
    AND ((SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 1
        WHERE e.table_name = 'suspicion_levels' AND e.row_key = printf('{"animal_id":%d}', NEW.animal_id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'suspicion_levels' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'suspicion_levels'
              AND row_key = printf('{"animal_id":%d}', NEW.animal_id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) IS NOT NEW.level);
  -- changes(): the rows the statement just before this one wrote (the update entry, or none).
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 1 AS ordinal, 'level' AS column_name, (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 1
        WHERE e.table_name = 'suspicion_levels' AND e.row_key = printf('{"animal_id":%d}', NEW.animal_id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'suspicion_levels' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'suspicion_levels'
              AND row_key = printf('{"animal_id":%d}', NEW.animal_id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) AS before_value, NEW.level AS after_value)
  WHERE changes() = 1 AND before_value IS NOT after_value;
END;

DROP TRIGGER history_suspicion_levels_after_update;
CREATE TRIGGER history_suspicion_levels_after_update AFTER UPDATE ON suspicion_levels
WHEN OLD.animal_id IS NOT NEW.animal_id
  OR OLD.level IS NOT NEW.level
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  -- The row a REPLACE removed from this key without a delete trigger, as the history last
  -- knew it.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'suspicion_levels', printf('{"animal_id":%d}', NEW.animal_id), 'delete', NEW.animal_id, NULL, NULL
  WHERE (OLD.animal_id IS NOT NEW.animal_id)
    AND coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'suspicion_levels' AND row_key = printf('{"animal_id":%d}', NEW.animal_id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'suspicion_levels' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update');
  -- changes(): the rows the statement just before this one wrote (the delete entry, or none).
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, NULL
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, NEW.animal_id AS before_value
    UNION ALL SELECT 1, 'level', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 1
        WHERE e.table_name = 'suspicion_levels' AND e.row_key = printf('{"animal_id":%d}', NEW.animal_id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'suspicion_levels' AND old_row_key = printf('{"animal_id":%d}', NEW.animal_id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'suspicion_levels'
              AND row_key = printf('{"animal_id":%d}', NEW.animal_id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1))
  WHERE changes() = 1;
  -- old_row_key: the key a row left, so the key counts as free again.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id, old_row_key)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'suspicion_levels', printf('{"animal_id":%d}', NEW.animal_id), 'update', NEW.animal_id, NULL, NULL,
    CASE WHEN OLD.animal_id IS NOT NEW.animal_id THEN printf('{"animal_id":%d}', OLD.animal_id) END);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, OLD.animal_id AS before_value, NEW.animal_id AS after_value
    UNION ALL SELECT 1, 'level', OLD.level, NEW.level)
  WHERE before_value IS NOT after_value;
END;

-- incidents: id, fruit_id, occurred_at, paw_size, latitude, longitude, notes (key id)
DROP TRIGGER history_incidents_after_insert;
CREATE TRIGGER history_incidents_after_insert AFTER INSERT ON incidents
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  -- An insert, as 0007 records it, unless the history says a row is at this key.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'incidents', printf('{"id":%d}', NEW.id), 'insert', NULL, NEW.fruit_id, NEW.id
  WHERE NOT coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'incidents' AND row_key = printf('{"id":%d}', NEW.id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update');
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'id' AS column_name, NULL AS before_value, NEW.id AS after_value
    UNION ALL SELECT 1, 'fruit_id', NULL, NEW.fruit_id
    UNION ALL SELECT 2, 'occurred_at', NULL, NEW.occurred_at
    UNION ALL SELECT 3, 'paw_size', NULL, NEW.paw_size
    UNION ALL SELECT 4, 'latitude', NULL, NEW.latitude
    UNION ALL SELECT 5, 'longitude', NULL, NEW.longitude
    UNION ALL SELECT 6, 'notes', NULL, NEW.notes)
  WHERE changes() = 1;
  -- Otherwise a REPLACE wrote this row over one the history holds (the old row went without
  -- a delete trigger; no values were just written, changes() = 0): an update from the values
  -- the history last knew, when any differs.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'incidents', printf('{"id":%d}', NEW.id), 'update', NULL, NEW.fruit_id, NEW.id
  WHERE changes() = 0 AND coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'incidents' AND row_key = printf('{"id":%d}', NEW.id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update')
    AND ((SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 1
        WHERE e.table_name = 'incidents' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'incidents'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) IS NOT NEW.fruit_id
      OR (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 2
        WHERE e.table_name = 'incidents' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'incidents'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) IS NOT NEW.occurred_at
      OR (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 3
        WHERE e.table_name = 'incidents' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'incidents'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) IS NOT NEW.paw_size
      OR (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 4
        WHERE e.table_name = 'incidents' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'incidents'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) IS NOT NEW.latitude
      OR (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 5
        WHERE e.table_name = 'incidents' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'incidents'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) IS NOT NEW.longitude
      OR (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 6
        WHERE e.table_name = 'incidents' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'incidents'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) IS NOT NEW.notes);
  -- changes(): the rows the statement just before this one wrote (the update entry, or none).
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 1 AS ordinal, 'fruit_id' AS column_name, (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 1
        WHERE e.table_name = 'incidents' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'incidents'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1) AS before_value, NEW.fruit_id AS after_value
    UNION ALL SELECT 2, 'occurred_at', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 2
        WHERE e.table_name = 'incidents' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'incidents'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1), NEW.occurred_at
    UNION ALL SELECT 3, 'paw_size', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 3
        WHERE e.table_name = 'incidents' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'incidents'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1), NEW.paw_size
    UNION ALL SELECT 4, 'latitude', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 4
        WHERE e.table_name = 'incidents' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'incidents'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1), NEW.latitude
    UNION ALL SELECT 5, 'longitude', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 5
        WHERE e.table_name = 'incidents' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'incidents'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1), NEW.longitude
    UNION ALL SELECT 6, 'notes', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 6
        WHERE e.table_name = 'incidents' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'incidents'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1), NEW.notes)
  WHERE changes() = 1 AND before_value IS NOT after_value;
END;

DROP TRIGGER history_incidents_after_update;
CREATE TRIGGER history_incidents_after_update AFTER UPDATE ON incidents
WHEN OLD.id IS NOT NEW.id
  OR OLD.fruit_id IS NOT NEW.fruit_id
  OR OLD.occurred_at IS NOT NEW.occurred_at
  OR OLD.paw_size IS NOT NEW.paw_size
  OR OLD.latitude IS NOT NEW.latitude
  OR OLD.longitude IS NOT NEW.longitude
  OR OLD.notes IS NOT NEW.notes
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  -- The row a REPLACE removed from this key without a delete trigger, as the history last
  -- knew it.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  SELECT coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'incidents', printf('{"id":%d}', NEW.id), 'delete', NULL, (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 1
        WHERE e.table_name = 'incidents' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'incidents'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1), NEW.id
  WHERE (OLD.id IS NOT NEW.id)
    AND coalesce((SELECT operation FROM history_entries
    WHERE table_name = 'incidents' AND row_key = printf('{"id":%d}', NEW.id)
      AND id > coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0)
    ORDER BY id DESC LIMIT 1), 'none') IN ('insert', 'update');
  -- changes(): the rows the statement just before this one wrote (the delete entry, or none).
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, NULL
  FROM (
    SELECT 0 AS ordinal, 'id' AS column_name, NEW.id AS before_value
    UNION ALL SELECT 1, 'fruit_id', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 1
        WHERE e.table_name = 'incidents' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'incidents'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1)
    UNION ALL SELECT 2, 'occurred_at', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 2
        WHERE e.table_name = 'incidents' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'incidents'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1)
    UNION ALL SELECT 3, 'paw_size', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 3
        WHERE e.table_name = 'incidents' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'incidents'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1)
    UNION ALL SELECT 4, 'latitude', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 4
        WHERE e.table_name = 'incidents' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'incidents'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1)
    UNION ALL SELECT 5, 'longitude', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 5
        WHERE e.table_name = 'incidents' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'incidents'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1)
    UNION ALL SELECT 6, 'notes', (SELECT v.after_value FROM history_entries AS e
        JOIN history_values AS v ON v.entry_id = e.id AND v.ordinal = 6
        WHERE e.table_name = 'incidents' AND e.row_key = printf('{"id":%d}', NEW.id) AND e.operation <> 'delete'
          AND e.id > max(coalesce((SELECT max(id) FROM history_entries
      WHERE table_name = 'incidents' AND old_row_key = printf('{"id":%d}', NEW.id)), 0),
            coalesce((SELECT max(id) FROM history_entries WHERE table_name = 'incidents'
              AND row_key = printf('{"id":%d}', NEW.id) AND operation = 'delete'
              AND id < (SELECT max(id) FROM history_entries)), 0))
        ORDER BY e.id DESC LIMIT 1))
  WHERE changes() = 1;
  -- old_row_key: the key a row left, so the key counts as free again.
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id, old_row_key)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'incidents', printf('{"id":%d}', NEW.id), 'update', NULL, NEW.fruit_id, NEW.id,
    CASE WHEN OLD.id IS NOT NEW.id THEN printf('{"id":%d}', OLD.id) END);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'id' AS column_name, OLD.id AS before_value, NEW.id AS after_value
    UNION ALL SELECT 1, 'fruit_id', OLD.fruit_id, NEW.fruit_id
    UNION ALL SELECT 2, 'occurred_at', OLD.occurred_at, NEW.occurred_at
    UNION ALL SELECT 3, 'paw_size', OLD.paw_size, NEW.paw_size
    UNION ALL SELECT 4, 'latitude', OLD.latitude, NEW.latitude
    UNION ALL SELECT 5, 'longitude', OLD.longitude, NEW.longitude
    UNION ALL SELECT 6, 'notes', OLD.notes, NEW.notes)
  WHERE before_value IS NOT after_value;
END;

