-- Schema v7: the case history (who changed what, when and why).
--
-- Every insert, update and delete of a row in a documented table is recorded by the triggers
-- below, so writes from the sqlite3 shell, sqlite-utils or Python are recorded as well as
-- inspector's. The triggers use only SQL's built-in functions that SQLite lets a trigger use
-- with trusted_schema off (strftime, printf, max), never a function of inspector's, so every
-- client can still write, and inspector's own defensive connections can too. (SQLite's JSON
-- functions are not allowed there before SQLite 3.41, so values are stored as SQL values and
-- inspector writes the JSON when it reads them.)
--
-- history_change_sets: one row per change set: when (UTC, milliseconds), who (actor, NULL for
-- other clients) and why (note). grouping says how its entries were grouped:
--   'transaction': inspector opened the change set for one transaction of its own (its id is
--     in history_context while that transaction runs; inspector empties history_context again
--     before it commits), or this migration's snapshot;
--   'statement': the entries of another client, which SQL cannot tie to a transaction. A
--     trigger that finds no open change set joins the newest change set when that one is a
--     'statement' one with the same statement time, and starts a new one otherwise. SQLite's
--     'now' is the same for every call within one statement, so a statement (with the rows
--     its foreign keys cascade to and the rows triggers change) is one change set, and
--     statements that run in the same millisecond share one.
--
-- history_entries: one row per changed row: the table, the row's key (a JSON object of its
-- primary key columns, all integers, after the change; before it for a delete) and the
-- operation. animal_id, fruit_id and incident_id name the suspect, fruit and incident the row
-- belongs to, for the history's filters; they have no foreign keys, as the history outlives
-- the rows.
--
-- history_values: the values of one entry, one row per column in the table's order (ordinal):
-- every recorded column of an insert (after_value) or a delete (before_value), only the
-- changed columns of an update (both; NULL to a value and back counts as a change, and an
-- UPDATE that changes no recorded column records nothing).
--
-- Recorded columns are the documented ones. The derived columns (animals.species_key,
-- name_key, keys_pending and suspicion_level; fruits.name_key and key_pending) are not: the
-- schema's own triggers compute them from the recorded ones, and their updates (which those
-- triggers make after writes) record nothing.

CREATE TABLE history_change_sets (
  id INTEGER PRIMARY KEY,
  -- UTC, 'YYYY-MM-DDTHH:MM:SS.SSSZ'.
  at TEXT NOT NULL CHECK (
    length(at) = 24
    AND at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9].[0-9][0-9][0-9]Z'
  ),
  actor TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 1000),
  note TEXT CHECK (note IS NULL OR length(note) <= 100000),
  grouping TEXT NOT NULL DEFAULT 'statement' CHECK (grouping IN ('transaction', 'statement'))
) STRICT;

CREATE TABLE history_entries (
  id INTEGER PRIMARY KEY,
  change_set_id INTEGER NOT NULL REFERENCES history_change_sets (id) ON DELETE CASCADE,
  table_name TEXT NOT NULL,
  row_key TEXT NOT NULL,
  operation TEXT NOT NULL CHECK (operation IN ('insert', 'update', 'delete')),
  animal_id INTEGER,
  fruit_id INTEGER,
  incident_id INTEGER
) STRICT;

CREATE INDEX history_entries_change_set ON history_entries (change_set_id, id);
CREATE INDEX history_entries_animal ON history_entries (animal_id, change_set_id)
  WHERE animal_id IS NOT NULL;
CREATE INDEX history_entries_fruit ON history_entries (fruit_id, change_set_id)
  WHERE fruit_id IS NOT NULL;
CREATE INDEX history_entries_incident ON history_entries (incident_id, change_set_id)
  WHERE incident_id IS NOT NULL;

CREATE TABLE history_values (
  entry_id INTEGER NOT NULL REFERENCES history_entries (id) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL,
  column_name TEXT NOT NULL,
  before_value ANY,
  after_value ANY,
  PRIMARY KEY (entry_id, ordinal)
) STRICT, WITHOUT ROWID;

-- The change set of the inspector transaction now running: at most one row, written and
-- removed inside that transaction, so a committed database never holds one.
CREATE TABLE history_context (
  only INTEGER PRIMARY KEY CHECK (only = 1),
  change_set_id INTEGER NOT NULL REFERENCES history_change_sets (id)
) STRICT;

-- The rows that exist now, as one change set of inserts (none on a new, empty file).
INSERT INTO history_change_sets (at, actor, note, grouping)
SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), NULL, 'snapshot at migration', 'transaction'
WHERE EXISTS (SELECT 1 FROM animals) OR EXISTS (SELECT 1 FROM fruits)
  OR EXISTS (SELECT 1 FROM incidents);

-- animals: one entry per row, in key order, then its values (the entries just inserted are
-- the last count(*) ids, in the same order).
INSERT INTO history_entries
  (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
SELECT (SELECT max(id) FROM history_change_sets), 'animals', printf('{"id":%d}', id), 'insert',
  id, NULL, NULL
FROM animals ORDER BY id;
INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
SELECT (SELECT max(id) FROM history_entries) - (SELECT count(*) FROM animals) + r.rank, c.ordinal,
  c.column_name, NULL,
  CASE c.ordinal WHEN 0 THEN r.id WHEN 1 THEN r.name WHEN 2 THEN r.species WHEN 3 THEN r.paw_size WHEN 4 THEN r.emoji END
FROM (SELECT row_number() OVER (ORDER BY id) AS rank, * FROM animals) AS r,
  (SELECT 0 AS ordinal, 'id' AS column_name UNION ALL SELECT 1, 'name' UNION ALL SELECT 2, 'species' UNION ALL SELECT 3, 'paw_size' UNION ALL SELECT 4, 'emoji') AS c
ORDER BY r.rank, c.ordinal;

-- fruits: one entry per row, in key order, then its values (the entries just inserted are
-- the last count(*) ids, in the same order).
INSERT INTO history_entries
  (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
SELECT (SELECT max(id) FROM history_change_sets), 'fruits', printf('{"id":%d}', id), 'insert',
  NULL, id, NULL
FROM fruits ORDER BY id;
INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
SELECT (SELECT max(id) FROM history_entries) - (SELECT count(*) FROM fruits) + r.rank, c.ordinal,
  c.column_name, NULL,
  CASE c.ordinal WHEN 0 THEN r.id WHEN 1 THEN r.name WHEN 2 THEN r.color END
FROM (SELECT row_number() OVER (ORDER BY id) AS rank, * FROM fruits) AS r,
  (SELECT 0 AS ordinal, 'id' AS column_name UNION ALL SELECT 1, 'name' UNION ALL SELECT 2, 'color') AS c
ORDER BY r.rank, c.ordinal;

-- favorite_fruits: one entry per row, in key order, then its values (the entries just inserted are
-- the last count(*) ids, in the same order).
INSERT INTO history_entries
  (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
SELECT (SELECT max(id) FROM history_change_sets), 'favorite_fruits', printf('{"animal_id":%d,"fruit_id":%d}', animal_id, fruit_id), 'insert',
  animal_id, fruit_id, NULL
FROM favorite_fruits ORDER BY animal_id, fruit_id;
INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
SELECT (SELECT max(id) FROM history_entries) - (SELECT count(*) FROM favorite_fruits) + r.rank, c.ordinal,
  c.column_name, NULL,
  CASE c.ordinal WHEN 0 THEN r.animal_id WHEN 1 THEN r.fruit_id WHEN 2 THEN r.position END
FROM (SELECT row_number() OVER (ORDER BY animal_id, fruit_id) AS rank, * FROM favorite_fruits) AS r,
  (SELECT 0 AS ordinal, 'animal_id' AS column_name UNION ALL SELECT 1, 'fruit_id' UNION ALL SELECT 2, 'position') AS c
ORDER BY r.rank, c.ordinal;

-- alibis: one entry per row, in key order, then its values (the entries just inserted are
-- the last count(*) ids, in the same order).
INSERT INTO history_entries
  (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
SELECT (SELECT max(id) FROM history_change_sets), 'alibis', printf('{"animal_id":%d}', animal_id), 'insert',
  animal_id, NULL, NULL
FROM alibis ORDER BY animal_id;
INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
SELECT (SELECT max(id) FROM history_entries) - (SELECT count(*) FROM alibis) + r.rank, c.ordinal,
  c.column_name, NULL,
  CASE c.ordinal WHEN 0 THEN r.animal_id WHEN 1 THEN r.statement END
FROM (SELECT row_number() OVER (ORDER BY animal_id) AS rank, * FROM alibis) AS r,
  (SELECT 0 AS ordinal, 'animal_id' AS column_name UNION ALL SELECT 1, 'statement') AS c
ORDER BY r.rank, c.ordinal;

-- sleep_schedules: one entry per row, in key order, then its values (the entries just inserted are
-- the last count(*) ids, in the same order).
INSERT INTO history_entries
  (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
SELECT (SELECT max(id) FROM history_change_sets), 'sleep_schedules', printf('{"animal_id":%d}', animal_id), 'insert',
  animal_id, NULL, NULL
FROM sleep_schedules ORDER BY animal_id;
INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
SELECT (SELECT max(id) FROM history_entries) - (SELECT count(*) FROM sleep_schedules) + r.rank, c.ordinal,
  c.column_name, NULL,
  CASE c.ordinal WHEN 0 THEN r.animal_id WHEN 1 THEN r.sleep_at WHEN 2 THEN r.wake_at END
FROM (SELECT row_number() OVER (ORDER BY animal_id) AS rank, * FROM sleep_schedules) AS r,
  (SELECT 0 AS ordinal, 'animal_id' AS column_name UNION ALL SELECT 1, 'sleep_at' UNION ALL SELECT 2, 'wake_at') AS c
ORDER BY r.rank, c.ordinal;

-- suspicion_levels: one entry per row, in key order, then its values (the entries just inserted are
-- the last count(*) ids, in the same order).
INSERT INTO history_entries
  (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
SELECT (SELECT max(id) FROM history_change_sets), 'suspicion_levels', printf('{"animal_id":%d}', animal_id), 'insert',
  animal_id, NULL, NULL
FROM suspicion_levels ORDER BY animal_id;
INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
SELECT (SELECT max(id) FROM history_entries) - (SELECT count(*) FROM suspicion_levels) + r.rank, c.ordinal,
  c.column_name, NULL,
  CASE c.ordinal WHEN 0 THEN r.animal_id WHEN 1 THEN r.level END
FROM (SELECT row_number() OVER (ORDER BY animal_id) AS rank, * FROM suspicion_levels) AS r,
  (SELECT 0 AS ordinal, 'animal_id' AS column_name UNION ALL SELECT 1, 'level') AS c
ORDER BY r.rank, c.ordinal;

-- incidents: one entry per row, in key order, then its values (the entries just inserted are
-- the last count(*) ids, in the same order).
INSERT INTO history_entries
  (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
SELECT (SELECT max(id) FROM history_change_sets), 'incidents', printf('{"id":%d}', id), 'insert',
  NULL, fruit_id, id
FROM incidents ORDER BY id;
INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
SELECT (SELECT max(id) FROM history_entries) - (SELECT count(*) FROM incidents) + r.rank, c.ordinal,
  c.column_name, NULL,
  CASE c.ordinal WHEN 0 THEN r.id WHEN 1 THEN r.fruit_id WHEN 2 THEN r.occurred_at WHEN 3 THEN r.paw_size WHEN 4 THEN r.latitude WHEN 5 THEN r.longitude WHEN 6 THEN r.notes END
FROM (SELECT row_number() OVER (ORDER BY id) AS rank, * FROM incidents) AS r,
  (SELECT 0 AS ordinal, 'id' AS column_name UNION ALL SELECT 1, 'fruit_id' UNION ALL SELECT 2, 'occurred_at' UNION ALL SELECT 3, 'paw_size' UNION ALL SELECT 4, 'latitude' UNION ALL SELECT 5, 'longitude' UNION ALL SELECT 6, 'notes') AS c
ORDER BY r.rank, c.ordinal;

-- animals: id, name, species, paw_size, emoji
CREATE TRIGGER history_animals_after_insert AFTER INSERT ON animals
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'animals', printf('{"id":%d}', NEW.id), 'insert', NEW.id, NULL, NULL);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'id' AS column_name, NULL AS before_value, NEW.id AS after_value
    UNION ALL SELECT 1, 'name', NULL, NEW.name
    UNION ALL SELECT 2, 'species', NULL, NEW.species
    UNION ALL SELECT 3, 'paw_size', NULL, NEW.paw_size
    UNION ALL SELECT 4, 'emoji', NULL, NEW.emoji);
END;

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
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'animals', printf('{"id":%d}', NEW.id), 'update', NEW.id, NULL, NULL);
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

CREATE TRIGGER history_animals_after_delete AFTER DELETE ON animals
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'animals', printf('{"id":%d}', OLD.id), 'delete', OLD.id, NULL, NULL);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'id' AS column_name, OLD.id AS before_value, NULL AS after_value
    UNION ALL SELECT 1, 'name', OLD.name, NULL
    UNION ALL SELECT 2, 'species', OLD.species, NULL
    UNION ALL SELECT 3, 'paw_size', OLD.paw_size, NULL
    UNION ALL SELECT 4, 'emoji', OLD.emoji, NULL);
END;

-- fruits: id, name, color
CREATE TRIGGER history_fruits_after_insert AFTER INSERT ON fruits
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'fruits', printf('{"id":%d}', NEW.id), 'insert', NULL, NEW.id, NULL);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'id' AS column_name, NULL AS before_value, NEW.id AS after_value
    UNION ALL SELECT 1, 'name', NULL, NEW.name
    UNION ALL SELECT 2, 'color', NULL, NEW.color);
END;

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
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'fruits', printf('{"id":%d}', NEW.id), 'update', NULL, NEW.id, NULL);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'id' AS column_name, OLD.id AS before_value, NEW.id AS after_value
    UNION ALL SELECT 1, 'name', OLD.name, NEW.name
    UNION ALL SELECT 2, 'color', OLD.color, NEW.color)
  WHERE before_value IS NOT after_value;
END;

CREATE TRIGGER history_fruits_after_delete AFTER DELETE ON fruits
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'fruits', printf('{"id":%d}', OLD.id), 'delete', NULL, OLD.id, NULL);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'id' AS column_name, OLD.id AS before_value, NULL AS after_value
    UNION ALL SELECT 1, 'name', OLD.name, NULL
    UNION ALL SELECT 2, 'color', OLD.color, NULL);
END;

-- favorite_fruits: animal_id, fruit_id, position
CREATE TRIGGER history_favorite_fruits_after_insert AFTER INSERT ON favorite_fruits
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'favorite_fruits', printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id), 'insert', NEW.animal_id, NEW.fruit_id, NULL);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, NULL AS before_value, NEW.animal_id AS after_value
    UNION ALL SELECT 1, 'fruit_id', NULL, NEW.fruit_id
    UNION ALL SELECT 2, 'position', NULL, NEW.position);
END;

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
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'favorite_fruits', printf('{"animal_id":%d,"fruit_id":%d}', NEW.animal_id, NEW.fruit_id), 'update', NEW.animal_id, NEW.fruit_id, NULL);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, OLD.animal_id AS before_value, NEW.animal_id AS after_value
    UNION ALL SELECT 1, 'fruit_id', OLD.fruit_id, NEW.fruit_id
    UNION ALL SELECT 2, 'position', OLD.position, NEW.position)
  WHERE before_value IS NOT after_value;
END;

CREATE TRIGGER history_favorite_fruits_after_delete AFTER DELETE ON favorite_fruits
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'favorite_fruits', printf('{"animal_id":%d,"fruit_id":%d}', OLD.animal_id, OLD.fruit_id), 'delete', OLD.animal_id, OLD.fruit_id, NULL);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, OLD.animal_id AS before_value, NULL AS after_value
    UNION ALL SELECT 1, 'fruit_id', OLD.fruit_id, NULL
    UNION ALL SELECT 2, 'position', OLD.position, NULL);
END;

-- alibis: animal_id, statement
CREATE TRIGGER history_alibis_after_insert AFTER INSERT ON alibis
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'alibis', printf('{"animal_id":%d}', NEW.animal_id), 'insert', NEW.animal_id, NULL, NULL);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, NULL AS before_value, NEW.animal_id AS after_value
    UNION ALL SELECT 1, 'statement', NULL, NEW.statement);
END;

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
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'alibis', printf('{"animal_id":%d}', NEW.animal_id), 'update', NEW.animal_id, NULL, NULL);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, OLD.animal_id AS before_value, NEW.animal_id AS after_value
    UNION ALL SELECT 1, 'statement', OLD.statement, NEW.statement)
  WHERE before_value IS NOT after_value;
END;

CREATE TRIGGER history_alibis_after_delete AFTER DELETE ON alibis
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'alibis', printf('{"animal_id":%d}', OLD.animal_id), 'delete', OLD.animal_id, NULL, NULL);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, OLD.animal_id AS before_value, NULL AS after_value
    UNION ALL SELECT 1, 'statement', OLD.statement, NULL);
END;

-- sleep_schedules: animal_id, sleep_at, wake_at
CREATE TRIGGER history_sleep_schedules_after_insert AFTER INSERT ON sleep_schedules
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'sleep_schedules', printf('{"animal_id":%d}', NEW.animal_id), 'insert', NEW.animal_id, NULL, NULL);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, NULL AS before_value, NEW.animal_id AS after_value
    UNION ALL SELECT 1, 'sleep_at', NULL, NEW.sleep_at
    UNION ALL SELECT 2, 'wake_at', NULL, NEW.wake_at);
END;

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
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'sleep_schedules', printf('{"animal_id":%d}', NEW.animal_id), 'update', NEW.animal_id, NULL, NULL);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, OLD.animal_id AS before_value, NEW.animal_id AS after_value
    UNION ALL SELECT 1, 'sleep_at', OLD.sleep_at, NEW.sleep_at
    UNION ALL SELECT 2, 'wake_at', OLD.wake_at, NEW.wake_at)
  WHERE before_value IS NOT after_value;
END;

CREATE TRIGGER history_sleep_schedules_after_delete AFTER DELETE ON sleep_schedules
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'sleep_schedules', printf('{"animal_id":%d}', OLD.animal_id), 'delete', OLD.animal_id, NULL, NULL);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, OLD.animal_id AS before_value, NULL AS after_value
    UNION ALL SELECT 1, 'sleep_at', OLD.sleep_at, NULL
    UNION ALL SELECT 2, 'wake_at', OLD.wake_at, NULL);
END;

-- suspicion_levels: animal_id, level
CREATE TRIGGER history_suspicion_levels_after_insert AFTER INSERT ON suspicion_levels
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'suspicion_levels', printf('{"animal_id":%d}', NEW.animal_id), 'insert', NEW.animal_id, NULL, NULL);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, NULL AS before_value, NEW.animal_id AS after_value
    UNION ALL SELECT 1, 'level', NULL, NEW.level);
END;

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
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'suspicion_levels', printf('{"animal_id":%d}', NEW.animal_id), 'update', NEW.animal_id, NULL, NULL);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, OLD.animal_id AS before_value, NEW.animal_id AS after_value
    UNION ALL SELECT 1, 'level', OLD.level, NEW.level)
  WHERE before_value IS NOT after_value;
END;

CREATE TRIGGER history_suspicion_levels_after_delete AFTER DELETE ON suspicion_levels
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'suspicion_levels', printf('{"animal_id":%d}', OLD.animal_id), 'delete', OLD.animal_id, NULL, NULL);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'animal_id' AS column_name, OLD.animal_id AS before_value, NULL AS after_value
    UNION ALL SELECT 1, 'level', OLD.level, NULL);
END;

-- incidents: id, fruit_id, occurred_at, paw_size, latitude, longitude, notes
CREATE TRIGGER history_incidents_after_insert AFTER INSERT ON incidents
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'incidents', printf('{"id":%d}', NEW.id), 'insert', NULL, NEW.fruit_id, NEW.id);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'id' AS column_name, NULL AS before_value, NEW.id AS after_value
    UNION ALL SELECT 1, 'fruit_id', NULL, NEW.fruit_id
    UNION ALL SELECT 2, 'occurred_at', NULL, NEW.occurred_at
    UNION ALL SELECT 3, 'paw_size', NULL, NEW.paw_size
    UNION ALL SELECT 4, 'latitude', NULL, NEW.latitude
    UNION ALL SELECT 5, 'longitude', NULL, NEW.longitude
    UNION ALL SELECT 6, 'notes', NULL, NEW.notes);
END;

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
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'incidents', printf('{"id":%d}', NEW.id), 'update', NULL, NEW.fruit_id, NEW.id);
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

CREATE TRIGGER history_incidents_after_delete AFTER DELETE ON incidents
BEGIN
  INSERT INTO history_change_sets (at, grouping)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'statement'
  WHERE NOT EXISTS (SELECT 1 FROM history_context)
    AND NOT EXISTS (SELECT 1 FROM history_change_sets
      WHERE id = (SELECT max(id) FROM history_change_sets)
        AND grouping = 'statement' AND at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  INSERT INTO history_entries (change_set_id, table_name, row_key, operation, animal_id, fruit_id, incident_id)
  VALUES (coalesce((SELECT change_set_id FROM history_context), (SELECT max(id) FROM history_change_sets)), 'incidents', printf('{"id":%d}', OLD.id), 'delete', NULL, OLD.fruit_id, OLD.id);
  INSERT INTO history_values (entry_id, ordinal, column_name, before_value, after_value)
  SELECT (SELECT max(id) FROM history_entries), ordinal, column_name, before_value, after_value
  FROM (
    SELECT 0 AS ordinal, 'id' AS column_name, OLD.id AS before_value, NULL AS after_value
    UNION ALL SELECT 1, 'fruit_id', OLD.fruit_id, NULL
    UNION ALL SELECT 2, 'occurred_at', OLD.occurred_at, NULL
    UNION ALL SELECT 3, 'paw_size', OLD.paw_size, NULL
    UNION ALL SELECT 4, 'latitude', OLD.latitude, NULL
    UNION ALL SELECT 5, 'longitude', OLD.longitude, NULL
    UNION ALL SELECT 6, 'notes', OLD.notes, NULL);
END;
