-- Marks rows whose folded keys were computed by the SQL triggers of 0001 (a plain INSERT or
-- UPDATE from the sqlite3 shell), which fold only ASCII and Latin-1 and do not normalize to NFC.
-- inspector re-folds the marked rows (full Unicode case folding, NFC) before it checks
-- uniqueness, and looks at them when an indexed look-up finds nothing, without scanning the
-- table: the partial indexes hold only marked rows.
ALTER TABLE animals ADD COLUMN keys_pending INTEGER NOT NULL DEFAULT 0 CHECK (keys_pending IN (0, 1));
ALTER TABLE fruits ADD COLUMN key_pending INTEGER NOT NULL DEFAULT 0 CHECK (key_pending IN (0, 1));
CREATE INDEX animals_keys_pending ON animals (id) WHERE keys_pending = 1;
CREATE INDEX fruits_key_pending ON fruits (id) WHERE key_pending = 1;

CREATE TRIGGER animals_mark_keys_after_insert AFTER INSERT ON animals
WHEN NEW.species_key IS NULL OR NEW.name_key IS NULL
BEGIN
  UPDATE animals SET keys_pending = 1 WHERE id = NEW.id;
END;

CREATE TRIGGER animals_mark_keys_after_update AFTER UPDATE OF name, species ON animals
WHEN (NEW.species_key IS OLD.species_key AND NEW.species IS NOT OLD.species)
  OR (NEW.name_key IS OLD.name_key AND NEW.name IS NOT OLD.name)
BEGIN
  UPDATE animals SET keys_pending = 1 WHERE id = NEW.id;
END;

CREATE TRIGGER fruits_mark_key_after_insert AFTER INSERT ON fruits
WHEN NEW.name_key IS NULL
BEGIN
  UPDATE fruits SET key_pending = 1 WHERE id = NEW.id;
END;

CREATE TRIGGER fruits_mark_key_after_update AFTER UPDATE OF name ON fruits
WHEN NEW.name_key IS OLD.name_key AND NEW.name IS NOT OLD.name
BEGIN
  UPDATE fruits SET key_pending = 1 WHERE id = NEW.id;
END;
