-- Schema v27: the suspects' key triggers end under PRAGMA recursive_triggers.
--
-- animals_keys_after_insert and animals_keys_after_update (0012) set species_key and name_key
-- with two UPDATEs of the row. A client that turns on PRAGMA recursive_triggers (Python's
-- sqlite3 and the shell leave it off; some ORMs turn it on) made each UPDATE fire
-- animals_keys_after_update again, whose first UPDATE ran again whether or not the species key
-- needed it, so inserting or renaming a suspect failed with "too many levels of trigger
-- recursion". Each UPDATE now also asks that its key differ from what it would write (or that
-- the key be marked folded): it writes nothing once the key is right, so the recursion ends after
-- one round. Without recursive triggers the two triggers write what they wrote before: an UPDATE
-- that would have written the values already there now writes nothing. fruits' key triggers
-- have one UPDATE whose trigger's WHEN already ends the recursion, and stay.

DROP TRIGGER IF EXISTS animals_keys_after_insert;
DROP TRIGGER IF EXISTS animals_keys_after_update;

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
  WHERE id = NEW.id
    AND (species_key IS NOT lower(NEW.species) OR species_folded_from IS NOT NULL)
    AND NOT (length(CAST(NEW.species AS BLOB)) > length(NEW.species)
    AND NEW.species_folded_from IS NEW.species);
  UPDATE animals SET
    name_key = lower(NEW.name), name_folded_from = NULL
  WHERE id = NEW.id
    AND (name_key IS NOT lower(NEW.name) OR name_folded_from IS NOT NULL)
    AND NOT (length(CAST(NEW.name AS BLOB)) > length(NEW.name)
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
  WHERE id = NEW.id
    AND (species_key IS NOT lower(NEW.species) OR species_folded_from IS NOT NULL)
    AND NOT (length(CAST(NEW.species AS BLOB)) > length(NEW.species)
    AND NEW.species_folded_from IS NEW.species
    AND (NEW.species_key IS OLD.species_key
      OR NEW.species_folded_from IS NOT OLD.species_folded_from));
  UPDATE animals SET
    name_key = lower(NEW.name), name_folded_from = NULL
  WHERE id = NEW.id
    AND (name_key IS NOT lower(NEW.name) OR name_folded_from IS NOT NULL)
    AND NOT (length(CAST(NEW.name AS BLOB)) > length(NEW.name)
    AND NEW.name_folded_from IS NEW.name
    AND (NEW.name_key IS OLD.name_key OR NEW.name_folded_from IS NOT OLD.name_folded_from));
END;
