-- Schema v12: a folded key is trusted when SQL can vouch for it, or when inspector folded it
-- from exactly the text now stored. No marks, no folding in SQL beyond lower().
--
-- Folded keys (animals.species_key, animals.name_key, fruits.name_key) hold Unicode folds
-- (Sources/CaseStore/Model/NameKey.swift). SQL's lower() gives exactly that fold for ASCII
-- text, so SQL vouches for it there; for any other text only inspector can fold it, and it
-- stores beside the key the text it folded: animals.species_folded_from,
-- animals.name_folded_from, fruits.name_folded_from (NULL for ASCII text). inspector writes the
-- key and its folded_from in one statement.
--
-- "ASCII" is tested as length(CAST(x AS BLOB)) = length(x): as many bytes as characters. It is
-- false for any character beyond ASCII (two bytes or more in UTF-8) and for a NUL, before which
-- length() stops counting (GLOB stops there too, so it cannot be used).
--
-- Every other write gets SQL's key: the triggers below set key = lower(text) (and folded_from
-- to NULL) whenever the key is not lower(text) and folded_from does not vouch for it: the text
-- is ASCII, or folded_from is not the text as stored. So a text another client changes loses
-- inspector's folding at once, and so does a key edited by hand (a key that changes while its
-- folded_from stays). The unique indexes on species_key and fruits.name_key stay: every client
-- is refused a species or fruit that differs from another only in ASCII letter case.
--
-- A row whose text is beyond ASCII and whose key inspector did not fold from it is
-- "unvouched": its key is lower(text), right for ASCII letters only. The partial indexes
-- animals_unvouched_keys and fruits_unvouched_keys list these rows; inspector's look-ups and
-- uniqueness checks compare them in Swift, and its writes fold them (docs/schema.md "Folded
-- keys"). Reads never write.
--
-- This replaces the marks of 0003 (keys_pending, key_pending) and the replace() chains of
-- 0005: rows that were not marked and hold text beyond ASCII have inspector's keys, so they are
-- vouched for; every other row gets SQL's key.

DROP TRIGGER animals_keys_after_insert;
DROP TRIGGER animals_keys_after_update;
DROP TRIGGER fruits_key_after_insert;
DROP TRIGGER fruits_key_after_update;
DROP INDEX animals_keys_pending;
DROP INDEX fruits_key_pending;

ALTER TABLE animals ADD COLUMN species_folded_from TEXT;
ALTER TABLE animals ADD COLUMN name_folded_from TEXT;
ALTER TABLE fruits ADD COLUMN name_folded_from TEXT;

UPDATE animals SET species_folded_from = species
WHERE keys_pending = 0 AND length(CAST(species AS BLOB)) > length(species);
UPDATE animals SET name_folded_from = name
WHERE keys_pending = 0 AND length(CAST(name AS BLOB)) > length(name);
UPDATE fruits SET name_folded_from = name
WHERE key_pending = 0 AND length(CAST(name AS BLOB)) > length(name);

-- A row whose SQL key would repeat another row's key stays as it is (OR IGNORE): `check`
-- reports the pair, as it reports any two rows that are one ignoring case.
UPDATE OR IGNORE animals SET species_key = lower(species)
WHERE species_folded_from IS NOT species AND species_key IS NOT lower(species);
UPDATE animals SET name_key = lower(name)
WHERE name_folded_from IS NOT name AND name_key IS NOT lower(name);
UPDATE OR IGNORE fruits SET name_key = lower(name)
WHERE name_folded_from IS NOT name AND name_key IS NOT lower(name);

ALTER TABLE animals DROP COLUMN keys_pending;
ALTER TABLE fruits DROP COLUMN key_pending;

CREATE INDEX animals_unvouched_keys ON animals (id)
WHERE (length(CAST(species AS BLOB)) > length(species) AND species_folded_from IS NOT species)
  OR (length(CAST(name AS BLOB)) > length(name) AND name_folded_from IS NOT name);
CREATE INDEX fruits_unvouched_keys ON fruits (id)
WHERE length(CAST(name AS BLOB)) > length(name) AND name_folded_from IS NOT name;

-- The key of text beyond ASCII is inspector's when its folded_from is the text as stored (on an
-- update: and the key did not change alone); every other key becomes lower(text), its
-- folded_from NULL.
CREATE TRIGGER animals_keys_after_insert AFTER INSERT ON animals
WHEN NOT (length(CAST(NEW.species AS BLOB)) > length(NEW.species)
      AND NEW.species_folded_from IS NEW.species)
    AND (NEW.species_key IS NOT lower(NEW.species) OR NEW.species_folded_from IS NOT NULL)
  OR NOT (length(CAST(NEW.name AS BLOB)) > length(NEW.name)
      AND NEW.name_folded_from IS NEW.name)
    AND (NEW.name_key IS NOT lower(NEW.name) OR NEW.name_folded_from IS NOT NULL)
BEGIN
  UPDATE animals SET
    species_key = lower(NEW.species), species_folded_from = NULL
  WHERE id = NEW.id AND NOT (length(CAST(NEW.species AS BLOB)) > length(NEW.species)
    AND NEW.species_folded_from IS NEW.species);
  UPDATE animals SET
    name_key = lower(NEW.name), name_folded_from = NULL
  WHERE id = NEW.id AND NOT (length(CAST(NEW.name AS BLOB)) > length(NEW.name)
    AND NEW.name_folded_from IS NEW.name);
END;

CREATE TRIGGER animals_keys_after_update
AFTER UPDATE OF name, species, species_key, name_key, species_folded_from, name_folded_from
ON animals
WHEN NOT (length(CAST(NEW.species AS BLOB)) > length(NEW.species)
      AND NEW.species_folded_from IS NEW.species
      AND (NEW.species_key IS OLD.species_key
        OR NEW.species_folded_from IS NOT OLD.species_folded_from))
    AND (NEW.species_key IS NOT lower(NEW.species) OR NEW.species_folded_from IS NOT NULL)
  OR NOT (length(CAST(NEW.name AS BLOB)) > length(NEW.name)
      AND NEW.name_folded_from IS NEW.name
      AND (NEW.name_key IS OLD.name_key OR NEW.name_folded_from IS NOT OLD.name_folded_from))
    AND (NEW.name_key IS NOT lower(NEW.name) OR NEW.name_folded_from IS NOT NULL)
BEGIN
  UPDATE animals SET
    species_key = lower(NEW.species), species_folded_from = NULL
  WHERE id = NEW.id AND NOT (length(CAST(NEW.species AS BLOB)) > length(NEW.species)
    AND NEW.species_folded_from IS NEW.species
    AND (NEW.species_key IS OLD.species_key
      OR NEW.species_folded_from IS NOT OLD.species_folded_from));
  UPDATE animals SET
    name_key = lower(NEW.name), name_folded_from = NULL
  WHERE id = NEW.id AND NOT (length(CAST(NEW.name AS BLOB)) > length(NEW.name)
    AND NEW.name_folded_from IS NEW.name
    AND (NEW.name_key IS OLD.name_key OR NEW.name_folded_from IS NOT OLD.name_folded_from));
END;

CREATE TRIGGER fruits_keys_after_insert AFTER INSERT ON fruits
WHEN NOT (length(CAST(NEW.name AS BLOB)) > length(NEW.name)
    AND NEW.name_folded_from IS NEW.name)
  AND (NEW.name_key IS NOT lower(NEW.name) OR NEW.name_folded_from IS NOT NULL)
BEGIN
  UPDATE fruits SET name_key = lower(NEW.name), name_folded_from = NULL WHERE id = NEW.id;
END;

CREATE TRIGGER fruits_keys_after_update AFTER UPDATE OF name, name_key, name_folded_from ON fruits
WHEN NOT (length(CAST(NEW.name AS BLOB)) > length(NEW.name)
    AND NEW.name_folded_from IS NEW.name
    AND (NEW.name_key IS OLD.name_key OR NEW.name_folded_from IS NOT OLD.name_folded_from))
  AND (NEW.name_key IS NOT lower(NEW.name) OR NEW.name_folded_from IS NOT NULL)
BEGIN
  UPDATE fruits SET name_key = lower(NEW.name), name_folded_from = NULL WHERE id = NEW.id;
END;
