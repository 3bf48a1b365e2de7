-- Schema v5: derived columns that plain SQL cannot get wrong, and names that cannot be blank.
--
-- Writes from other clients (the sqlite3 shell, sqlite-utils, Python) fire these triggers too.
--
-- Folded keys (animals.species_key, animals.name_key, fruits.name_key). A marked row
-- (keys_pending = 1) is never trusted: inspector re-folds marked rows (full Unicode case
-- folding, NFC) before it relies on their keys, and a look-up that meets a marked row compares
-- it in Swift. So the triggers act only on a write that leaves a row unmarked. For text made
-- only of printable ASCII, SQL's lower() is exactly the key inspector computes: a missing or
-- wrong key is recomputed whenever a write leaves the row unmarked, and the unique index
-- refuses a second species or fruit that differs only in letter case. Any other text (accents, Greek, Cyrillic, decomposed letters, control
-- characters) cannot be folded fully in SQL: the triggers store the ASCII and Latin-1 folding of
-- the 0001 triggers (so Latin-1 duplicates are still refused at once) and mark the row.
-- inspector's own writes of such text mark the row themselves and store the Unicode keys, and
-- its repair clears the mark (keys_pending from 1 to 0) with the keys in one UPDATE; neither
-- fires the folding. (A client that clears the mark by hand on such a row is believed; the
-- look-ups check every row they find against its own text, and `check` reports the keys.) The folding steps are the replace() calls of 0001, at most 15 nested in one
-- expression (SQLite's parser limits the depth), both keys in the same UPDATE.
--
-- The mirrored level (animals.suspicion_level, the ranking's index column) always equals
-- suspicion_levels.level, or 0 without a row there: an INSERT into animals gets the right value
-- whatever it supplies, so does a row whose id changes, and an UPDATE that sets another value
-- is refused.
--
-- Blank names: the CHECK constraints of 0001 trim only spaces; these triggers refuse a name,
-- species or fruit name made only of Unicode white space (tab, no-break space, ideographic
-- space, ...), as inspector does.

DROP TRIGGER animals_keys_after_insert;
DROP TRIGGER animals_species_key_after_update;
DROP TRIGGER animals_name_key_after_update;
DROP TRIGGER fruits_name_key_after_insert;
DROP TRIGGER fruits_name_key_after_update;
DROP TRIGGER animals_mark_keys_after_insert;
DROP TRIGGER animals_mark_keys_after_update;
DROP TRIGGER fruits_mark_key_after_insert;
DROP TRIGGER fruits_mark_key_after_update;

-- Rows written before this migration: mark every row whose keys SQL cannot vouch for.
UPDATE animals SET keys_pending = 1
WHERE species GLOB '*[^ -~]*' OR name GLOB '*[^ -~]*'
  OR species_key IS NOT lower(species) OR name_key IS NOT lower(name);
UPDATE fruits SET key_pending = 1 WHERE name GLOB '*[^ -~]*' OR name_key IS NOT lower(name);
UPDATE animals SET species_key = lower(species), name_key = lower(name)
WHERE keys_pending = 1 AND NOT (species GLOB '*[^ -~]*' OR name GLOB '*[^ -~]*');
UPDATE fruits SET name_key = lower(name) WHERE key_pending = 1 AND NOT name GLOB '*[^ -~]*';
UPDATE animals SET keys_pending = 0
WHERE keys_pending = 1 AND NOT (species GLOB '*[^ -~]*' OR name GLOB '*[^ -~]*');
UPDATE fruits SET key_pending = 0 WHERE key_pending = 1 AND NOT name GLOB '*[^ -~]*';
UPDATE animals
SET suspicion_level = coalesce((SELECT level FROM suspicion_levels WHERE animal_id = animals.id), 0.0)
WHERE suspicion_level IS NOT coalesce((SELECT level FROM suspicion_levels WHERE animal_id = animals.id), 0.0);

CREATE TRIGGER animals_keys_after_insert AFTER INSERT ON animals
WHEN NEW.keys_pending = 0
  AND (NEW.species GLOB '*[^ -~]*' OR NEW.name GLOB '*[^ -~]*'
    OR NEW.species_key IS NOT lower(NEW.species) OR NEW.name_key IS NOT lower(NEW.name))
BEGIN
  UPDATE animals SET species_key = lower(NEW.species), name_key = lower(NEW.name),
    keys_pending = (NEW.species GLOB '*[^ -~]*' OR NEW.name GLOB '*[^ -~]*')
  WHERE id = NEW.id;
  UPDATE animals SET species_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(species_key, 'À', 'à'), 'Á', 'á'), 'Â', 'â'), 'Ã', 'ã'), 'Ä', 'ä'), 'Å', 'å'), 'Æ', 'æ'), 'Ç', 'ç'), 'È', 'è'), 'É', 'é'), 'Ê', 'ê'), 'Ë', 'ë'), 'Ì', 'ì'), 'Í', 'í'), 'Î', 'î'), name_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(name_key, 'À', 'a'), 'Á', 'a'), 'Â', 'a'), 'Ã', 'a'), 'Ä', 'a'), 'Å', 'a'), 'Æ', 'æ'), 'Ç', 'c'), 'È', 'e'), 'É', 'e'), 'Ê', 'e'), 'Ë', 'e'), 'Ì', 'i'), 'Í', 'i'), 'Î', 'i') WHERE id = NEW.id;
  UPDATE animals SET species_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(species_key, 'Ï', 'ï'), 'Ð', 'ð'), 'Ñ', 'ñ'), 'Ò', 'ò'), 'Ó', 'ó'), 'Ô', 'ô'), 'Õ', 'õ'), 'Ö', 'ö'), 'Ø', 'ø'), 'Ù', 'ù'), 'Ú', 'ú'), 'Û', 'û'), 'Ü', 'ü'), 'Ý', 'ý'), 'Þ', 'þ'), name_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(name_key, 'Ï', 'i'), 'Ð', 'ð'), 'Ñ', 'n'), 'Ò', 'o'), 'Ó', 'o'), 'Ô', 'o'), 'Õ', 'o'), 'Ö', 'o'), 'Ø', 'ø'), 'Ù', 'u'), 'Ú', 'u'), 'Û', 'u'), 'Ü', 'u'), 'Ý', 'y'), 'Þ', 'þ') WHERE id = NEW.id;
  UPDATE animals SET species_key = replace(species_key, 'ß', 'ss'), name_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(name_key, 'ß', 'ss'), 'à', 'a'), 'á', 'a'), 'â', 'a'), 'ã', 'a'), 'ä', 'a'), 'å', 'a'), 'ç', 'c'), 'è', 'e'), 'é', 'e'), 'ê', 'e'), 'ë', 'e'), 'ì', 'i'), 'í', 'i'), 'î', 'i') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(name_key, 'ï', 'i'), 'ñ', 'n'), 'ò', 'o'), 'ó', 'o'), 'ô', 'o'), 'õ', 'o'), 'ö', 'o'), 'ù', 'u'), 'ú', 'u'), 'û', 'u'), 'ü', 'u'), 'ý', 'y'), 'ÿ', 'y'), '̀', ''), '́', '') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(name_key, '̂', ''), '̃', ''), '̈', ''), '̊', ''), '̧', '') WHERE id = NEW.id;
END;

CREATE TRIGGER animals_keys_after_update
AFTER UPDATE OF name, species, species_key, name_key, keys_pending ON animals
WHEN NEW.keys_pending = 0 AND (
  (NOT (NEW.species GLOB '*[^ -~]*' OR NEW.name GLOB '*[^ -~]*')
    AND (NEW.species_key IS NOT lower(NEW.species) OR NEW.name_key IS NOT lower(NEW.name)))
  OR (OLD.keys_pending = 0 AND (NEW.species GLOB '*[^ -~]*' OR NEW.name GLOB '*[^ -~]*')))
BEGIN
  UPDATE animals SET species_key = lower(NEW.species), name_key = lower(NEW.name),
    keys_pending = (NEW.species GLOB '*[^ -~]*' OR NEW.name GLOB '*[^ -~]*')
  WHERE id = NEW.id;
  UPDATE animals SET species_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(species_key, 'À', 'à'), 'Á', 'á'), 'Â', 'â'), 'Ã', 'ã'), 'Ä', 'ä'), 'Å', 'å'), 'Æ', 'æ'), 'Ç', 'ç'), 'È', 'è'), 'É', 'é'), 'Ê', 'ê'), 'Ë', 'ë'), 'Ì', 'ì'), 'Í', 'í'), 'Î', 'î'), name_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(name_key, 'À', 'a'), 'Á', 'a'), 'Â', 'a'), 'Ã', 'a'), 'Ä', 'a'), 'Å', 'a'), 'Æ', 'æ'), 'Ç', 'c'), 'È', 'e'), 'É', 'e'), 'Ê', 'e'), 'Ë', 'e'), 'Ì', 'i'), 'Í', 'i'), 'Î', 'i') WHERE id = NEW.id;
  UPDATE animals SET species_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(species_key, 'Ï', 'ï'), 'Ð', 'ð'), 'Ñ', 'ñ'), 'Ò', 'ò'), 'Ó', 'ó'), 'Ô', 'ô'), 'Õ', 'õ'), 'Ö', 'ö'), 'Ø', 'ø'), 'Ù', 'ù'), 'Ú', 'ú'), 'Û', 'û'), 'Ü', 'ü'), 'Ý', 'ý'), 'Þ', 'þ'), name_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(name_key, 'Ï', 'i'), 'Ð', 'ð'), 'Ñ', 'n'), 'Ò', 'o'), 'Ó', 'o'), 'Ô', 'o'), 'Õ', 'o'), 'Ö', 'o'), 'Ø', 'ø'), 'Ù', 'u'), 'Ú', 'u'), 'Û', 'u'), 'Ü', 'u'), 'Ý', 'y'), 'Þ', 'þ') WHERE id = NEW.id;
  UPDATE animals SET species_key = replace(species_key, 'ß', 'ss'), name_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(name_key, 'ß', 'ss'), 'à', 'a'), 'á', 'a'), 'â', 'a'), 'ã', 'a'), 'ä', 'a'), 'å', 'a'), 'ç', 'c'), 'è', 'e'), 'é', 'e'), 'ê', 'e'), 'ë', 'e'), 'ì', 'i'), 'í', 'i'), 'î', 'i') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(name_key, 'ï', 'i'), 'ñ', 'n'), 'ò', 'o'), 'ó', 'o'), 'ô', 'o'), 'õ', 'o'), 'ö', 'o'), 'ù', 'u'), 'ú', 'u'), 'û', 'u'), 'ü', 'u'), 'ý', 'y'), 'ÿ', 'y'), '̀', ''), '́', '') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(name_key, '̂', ''), '̃', ''), '̈', ''), '̊', ''), '̧', '') WHERE id = NEW.id;
END;

CREATE TRIGGER fruits_key_after_insert AFTER INSERT ON fruits
WHEN NEW.key_pending = 0
  AND (NEW.name GLOB '*[^ -~]*' OR NEW.name_key IS NOT lower(NEW.name))
BEGIN
  UPDATE fruits SET name_key = lower(NEW.name), key_pending = (NEW.name GLOB '*[^ -~]*')
  WHERE id = NEW.id;
  UPDATE fruits SET name_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(name_key, 'À', 'à'), 'Á', 'á'), 'Â', 'â'), 'Ã', 'ã'), 'Ä', 'ä'), 'Å', 'å'), 'Æ', 'æ'), 'Ç', 'ç'), 'È', 'è'), 'É', 'é'), 'Ê', 'ê'), 'Ë', 'ë'), 'Ì', 'ì'), 'Í', 'í'), 'Î', 'î') WHERE id = NEW.id;
  UPDATE fruits SET name_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(name_key, 'Ï', 'ï'), 'Ð', 'ð'), 'Ñ', 'ñ'), 'Ò', 'ò'), 'Ó', 'ó'), 'Ô', 'ô'), 'Õ', 'õ'), 'Ö', 'ö'), 'Ø', 'ø'), 'Ù', 'ù'), 'Ú', 'ú'), 'Û', 'û'), 'Ü', 'ü'), 'Ý', 'ý'), 'Þ', 'þ') WHERE id = NEW.id;
  UPDATE fruits SET name_key = replace(name_key, 'ß', 'ss') WHERE id = NEW.id;
END;

CREATE TRIGGER fruits_key_after_update AFTER UPDATE OF name, name_key, key_pending ON fruits
WHEN NEW.key_pending = 0 AND (
  (NOT NEW.name GLOB '*[^ -~]*' AND NEW.name_key IS NOT lower(NEW.name))
  OR (OLD.key_pending = 0 AND NEW.name GLOB '*[^ -~]*'))
BEGIN
  UPDATE fruits SET name_key = lower(NEW.name), key_pending = (NEW.name GLOB '*[^ -~]*')
  WHERE id = NEW.id;
  UPDATE fruits SET name_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(name_key, 'À', 'à'), 'Á', 'á'), 'Â', 'â'), 'Ã', 'ã'), 'Ä', 'ä'), 'Å', 'å'), 'Æ', 'æ'), 'Ç', 'ç'), 'È', 'è'), 'É', 'é'), 'Ê', 'ê'), 'Ë', 'ë'), 'Ì', 'ì'), 'Í', 'í'), 'Î', 'î') WHERE id = NEW.id;
  UPDATE fruits SET name_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(name_key, 'Ï', 'ï'), 'Ð', 'ð'), 'Ñ', 'ñ'), 'Ò', 'ò'), 'Ó', 'ó'), 'Ô', 'ô'), 'Õ', 'õ'), 'Ö', 'ö'), 'Ø', 'ø'), 'Ù', 'ù'), 'Ú', 'ú'), 'Û', 'û'), 'Ü', 'ü'), 'Ý', 'ý'), 'Þ', 'þ') WHERE id = NEW.id;
  UPDATE fruits SET name_key = replace(name_key, 'ß', 'ss') WHERE id = NEW.id;
END;

CREATE TRIGGER animals_level_after_insert AFTER INSERT ON animals
WHEN NEW.suspicion_level IS NOT
  coalesce((SELECT level FROM suspicion_levels WHERE animal_id = NEW.id), 0.0)
BEGIN
  UPDATE animals
  SET suspicion_level = coalesce((SELECT level FROM suspicion_levels WHERE animal_id = NEW.id), 0.0)
  WHERE id = NEW.id;
END;

CREATE TRIGGER animals_level_after_id_update AFTER UPDATE OF id ON animals
WHEN NEW.suspicion_level IS NOT
  coalesce((SELECT level FROM suspicion_levels WHERE animal_id = NEW.id), 0.0)
BEGIN
  UPDATE animals
  SET suspicion_level = coalesce((SELECT level FROM suspicion_levels WHERE animal_id = NEW.id), 0.0)
  WHERE id = NEW.id;
END;

CREATE TRIGGER animals_level_before_update BEFORE UPDATE OF suspicion_level ON animals
WHEN NEW.suspicion_level IS NOT
  coalesce((SELECT level FROM suspicion_levels WHERE animal_id = NEW.id), 0.0)
BEGIN
  SELECT RAISE(ABORT, 'animals.suspicion_level mirrors suspicion_levels.level: change suspicion_levels instead');
END;

CREATE TRIGGER animals_names_before_insert BEFORE INSERT ON animals
WHEN trim(NEW.name, char(9, 10, 11, 12, 13, 32, 133, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288)) = '' OR trim(NEW.species, char(9, 10, 11, 12, 13, 32, 133, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288)) = ''
BEGIN
  SELECT RAISE(ABORT, 'a suspect''s name and species must not be blank or only white space');
END;

CREATE TRIGGER animals_names_before_update BEFORE UPDATE OF name, species ON animals
WHEN trim(NEW.name, char(9, 10, 11, 12, 13, 32, 133, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288)) = '' OR trim(NEW.species, char(9, 10, 11, 12, 13, 32, 133, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288)) = ''
BEGIN
  SELECT RAISE(ABORT, 'a suspect''s name and species must not be blank or only white space');
END;

CREATE TRIGGER fruits_name_before_insert BEFORE INSERT ON fruits
WHEN trim(NEW.name, char(9, 10, 11, 12, 13, 32, 133, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288)) = ''
BEGIN
  SELECT RAISE(ABORT, 'a fruit''s name must not be blank or only white space');
END;

CREATE TRIGGER fruits_name_before_update BEFORE UPDATE OF name ON fruits
WHEN trim(NEW.name, char(9, 10, 11, 12, 13, 32, 133, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288)) = ''
BEGIN
  SELECT RAISE(ABORT, 'a fruit''s name must not be blank or only white space');
END;
