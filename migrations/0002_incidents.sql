-- Schema v2: nibble incidents (the Fruit Nibble Bulletin) and what the clue ranking needs
-- (SPEC.md sections 3 and 5).

CREATE TABLE incidents (
  id INTEGER PRIMARY KEY,
  fruit_id INTEGER NOT NULL REFERENCES fruits (id) ON DELETE RESTRICT,
  -- Local date and time, minute precision: 'YYYY-MM-DDTHH:MM', a real calendar date.
  occurred_at TEXT NOT NULL CHECK (
    length(occurred_at) = 16
    AND occurred_at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]'
    AND date(substr(occurred_at, 1, 10), '+0 days') IS substr(occurred_at, 1, 10)
    AND substr(occurred_at, 12, 5) < '24:00'
  ),
  -- The paw-size clue, when the bulletin has one.
  paw_size TEXT CHECK (paw_size IS NULL OR paw_size IN ('small', 'medium', 'large')),
  -- Where it happened, in degrees (both or neither).
  latitude REAL CHECK (latitude IS NULL OR (latitude >= -90 AND latitude <= 90)),
  longitude REAL CHECK (longitude IS NULL OR (longitude >= -180 AND longitude <= 180)),
  notes TEXT NOT NULL DEFAULT '' CHECK (length(notes) <= 100000),
  CHECK ((latitude IS NULL) = (longitude IS NULL))
) STRICT;

CREATE INDEX incidents_fruit ON incidents (fruit_id);

-- The ranking walks suspects in its own order (suspicion level descending, then name ignoring
-- case and accents, then species, then id) and stops as soon as the top N are certain, so the
-- level is mirrored onto animals, kept in step with suspicion_levels by triggers (writes from
-- the sqlite3 shell included), under one index in exactly that order.
ALTER TABLE animals ADD COLUMN suspicion_level REAL NOT NULL DEFAULT 0
  CHECK (suspicion_level >= 0 AND suspicion_level <= 1);

UPDATE animals
SET suspicion_level = (SELECT level FROM suspicion_levels WHERE animal_id = animals.id)
WHERE id IN (SELECT animal_id FROM suspicion_levels);

CREATE INDEX animals_rank_order ON animals (suspicion_level DESC, name_key, species_key, id);

CREATE TRIGGER suspicion_levels_after_insert AFTER INSERT ON suspicion_levels
BEGIN
  UPDATE animals SET suspicion_level = NEW.level WHERE id = NEW.animal_id;
END;

CREATE TRIGGER suspicion_levels_after_update AFTER UPDATE ON suspicion_levels
BEGIN
  UPDATE animals SET suspicion_level = 0 WHERE id = OLD.animal_id AND OLD.animal_id <> NEW.animal_id;
  UPDATE animals SET suspicion_level = NEW.level WHERE id = NEW.animal_id;
END;

CREATE TRIGGER suspicion_levels_after_delete AFTER DELETE ON suspicion_levels
BEGIN
  UPDATE animals SET suspicion_level = 0 WHERE id = OLD.animal_id;
END;
