-- Schema v1: suspects, fruits, favourite fruits and the interview (SPEC.md section 3).
--
-- Conventions: STRICT tables; constraints live here, so that a write through the stock sqlite3
-- shell cannot store what inspector would refuse; no custom collation or function.
--
-- Case-insensitive uniqueness and look-ups beyond ASCII: species and fruit names carry a
-- case-folded key (animals.species_key, fruits.name_key) under a UNIQUE index, and suspect names
-- a case- and accent-folded key (animals.name_key) for look-ups and the ranking's name order.
-- inspector writes the keys itself (Unicode folding, NFC); a plain INSERT or UPDATE from the
-- sqlite3 shell that leaves them out gets them from the triggers below, which fold ASCII and
-- Latin-1 letters (SQLite's lower() alone folds only A-Z).

CREATE TABLE fruits (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL CHECK (length(trim(name)) > 0 AND length(name) <= 10000),
  color TEXT NOT NULL CHECK (
    (length(color) = 7 AND color GLOB '#[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f]')
    OR (length(color) BETWEEN 1 AND 40 AND color NOT GLOB '*[^a-z -]*' AND color GLOB '[a-z]*')
  ),
  name_key TEXT UNIQUE
) STRICT;

CREATE TABLE animals (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL CHECK (length(trim(name)) > 0 AND length(name) <= 10000),
  species TEXT NOT NULL CHECK (length(trim(species)) > 0 AND length(species) <= 10000),
  paw_size TEXT NOT NULL CHECK (paw_size IN ('small', 'medium', 'large')),
  emoji TEXT CHECK (emoji IS NULL OR length(emoji) BETWEEN 1 AND 64),
  species_key TEXT UNIQUE,
  name_key TEXT
) STRICT;

CREATE INDEX animals_name_key ON animals (name_key);

-- A suspect's favourite fruits, in order of position (gaps allowed; ascending order is the
-- suspect's order of preference).
CREATE TABLE favorite_fruits (
  animal_id INTEGER NOT NULL REFERENCES animals (id) ON DELETE CASCADE,
  fruit_id INTEGER NOT NULL REFERENCES fruits (id) ON DELETE RESTRICT,
  position INTEGER NOT NULL CHECK (position >= 0),
  PRIMARY KEY (animal_id, fruit_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX favorite_fruits_fruit ON favorite_fruits (fruit_id, animal_id);

-- The interview: one optional row per suspect in each table; a missing row is the default
-- (no alibi, no sleep schedule, suspicion level 0).
CREATE TABLE alibis (
  animal_id INTEGER PRIMARY KEY REFERENCES animals (id) ON DELETE CASCADE,
  statement TEXT NOT NULL DEFAULT '' CHECK (length(statement) <= 100000)
) STRICT;

CREATE TABLE sleep_schedules (
  animal_id INTEGER PRIMARY KEY REFERENCES animals (id) ON DELETE CASCADE,
  sleep_at TEXT NOT NULL DEFAULT '22:30'
    CHECK (length(sleep_at) = 5 AND sleep_at GLOB '[0-2][0-9]:[0-5][0-9]' AND sleep_at < '24:00'),
  wake_at TEXT NOT NULL DEFAULT '06:30'
    CHECK (length(wake_at) = 5 AND wake_at GLOB '[0-2][0-9]:[0-5][0-9]' AND wake_at < '24:00')
) STRICT;

CREATE TABLE suspicion_levels (
  animal_id INTEGER PRIMARY KEY REFERENCES animals (id) ON DELETE CASCADE,
  level REAL NOT NULL DEFAULT 0 CHECK (level >= 0 AND level <= 1)
) STRICT;

-- Keys for rows written without them: lower() for A-Z, then Latin-1 letters in steps of a few
-- replace() calls each (the SQL parser limits nesting). Keys inspector wrote are already folded,
-- so the steps leave them unchanged.
CREATE TRIGGER animals_keys_after_insert AFTER INSERT ON animals
WHEN NEW.species_key IS NULL OR NEW.name_key IS NULL
BEGIN
  UPDATE animals SET
    species_key = coalesce(NEW.species_key, lower(NEW.species)),
    name_key = coalesce(NEW.name_key, lower(NEW.name))
  WHERE id = NEW.id;
  UPDATE animals SET species_key = replace(replace(replace(replace(replace(replace(species_key, 'À', 'à'), 'Á', 'á'), 'Â', 'â'), 'Ã', 'ã'), 'Ä', 'ä'), 'Å', 'å') WHERE id = NEW.id;
  UPDATE animals SET species_key = replace(replace(replace(replace(replace(replace(species_key, 'Æ', 'æ'), 'Ç', 'ç'), 'È', 'è'), 'É', 'é'), 'Ê', 'ê'), 'Ë', 'ë') WHERE id = NEW.id;
  UPDATE animals SET species_key = replace(replace(replace(replace(replace(replace(species_key, 'Ì', 'ì'), 'Í', 'í'), 'Î', 'î'), 'Ï', 'ï'), 'Ð', 'ð'), 'Ñ', 'ñ') WHERE id = NEW.id;
  UPDATE animals SET species_key = replace(replace(replace(replace(replace(replace(species_key, 'Ò', 'ò'), 'Ó', 'ó'), 'Ô', 'ô'), 'Õ', 'õ'), 'Ö', 'ö'), 'Ø', 'ø') WHERE id = NEW.id;
  UPDATE animals SET species_key = replace(replace(replace(replace(replace(replace(species_key, 'Ù', 'ù'), 'Ú', 'ú'), 'Û', 'û'), 'Ü', 'ü'), 'Ý', 'ý'), 'Þ', 'þ') WHERE id = NEW.id;
  UPDATE animals SET species_key = replace(species_key, 'ß', 'ss') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'À', 'a'), 'Á', 'a'), 'Â', 'a'), 'Ã', 'a'), 'Ä', 'a'), 'Å', 'a') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'Æ', 'æ'), 'Ç', 'c'), 'È', 'e'), 'É', 'e'), 'Ê', 'e'), 'Ë', 'e') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'Ì', 'i'), 'Í', 'i'), 'Î', 'i'), 'Ï', 'i'), 'Ð', 'ð'), 'Ñ', 'n') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'Ò', 'o'), 'Ó', 'o'), 'Ô', 'o'), 'Õ', 'o'), 'Ö', 'o'), 'Ø', 'ø') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'Ù', 'u'), 'Ú', 'u'), 'Û', 'u'), 'Ü', 'u'), 'Ý', 'y'), 'Þ', 'þ') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'ß', 'ss'), 'à', 'a'), 'á', 'a'), 'â', 'a'), 'ã', 'a'), 'ä', 'a') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'å', 'a'), 'ç', 'c'), 'è', 'e'), 'é', 'e'), 'ê', 'e'), 'ë', 'e') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'ì', 'i'), 'í', 'i'), 'î', 'i'), 'ï', 'i'), 'ñ', 'n'), 'ò', 'o') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'ó', 'o'), 'ô', 'o'), 'õ', 'o'), 'ö', 'o'), 'ù', 'u'), 'ú', 'u') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'û', 'u'), 'ü', 'u'), 'ý', 'y'), 'ÿ', 'y'), '̀', ''), '́', '') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(name_key, '̂', ''), '̃', ''), '̈', ''), '̊', ''), '̧', '') WHERE id = NEW.id;
END;

CREATE TRIGGER animals_species_key_after_update AFTER UPDATE OF species ON animals
WHEN NEW.species_key IS OLD.species_key AND NEW.species IS NOT OLD.species
BEGIN
  UPDATE animals SET species_key = lower(NEW.species) WHERE id = NEW.id;
  UPDATE animals SET species_key = replace(replace(replace(replace(replace(replace(species_key, 'À', 'à'), 'Á', 'á'), 'Â', 'â'), 'Ã', 'ã'), 'Ä', 'ä'), 'Å', 'å') WHERE id = NEW.id;
  UPDATE animals SET species_key = replace(replace(replace(replace(replace(replace(species_key, 'Æ', 'æ'), 'Ç', 'ç'), 'È', 'è'), 'É', 'é'), 'Ê', 'ê'), 'Ë', 'ë') WHERE id = NEW.id;
  UPDATE animals SET species_key = replace(replace(replace(replace(replace(replace(species_key, 'Ì', 'ì'), 'Í', 'í'), 'Î', 'î'), 'Ï', 'ï'), 'Ð', 'ð'), 'Ñ', 'ñ') WHERE id = NEW.id;
  UPDATE animals SET species_key = replace(replace(replace(replace(replace(replace(species_key, 'Ò', 'ò'), 'Ó', 'ó'), 'Ô', 'ô'), 'Õ', 'õ'), 'Ö', 'ö'), 'Ø', 'ø') WHERE id = NEW.id;
  UPDATE animals SET species_key = replace(replace(replace(replace(replace(replace(species_key, 'Ù', 'ù'), 'Ú', 'ú'), 'Û', 'û'), 'Ü', 'ü'), 'Ý', 'ý'), 'Þ', 'þ') WHERE id = NEW.id;
  UPDATE animals SET species_key = replace(species_key, 'ß', 'ss') WHERE id = NEW.id;
END;

CREATE TRIGGER animals_name_key_after_update AFTER UPDATE OF name ON animals
WHEN NEW.name_key IS OLD.name_key AND NEW.name IS NOT OLD.name
BEGIN
  UPDATE animals SET name_key = lower(NEW.name) WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'À', 'a'), 'Á', 'a'), 'Â', 'a'), 'Ã', 'a'), 'Ä', 'a'), 'Å', 'a') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'Æ', 'æ'), 'Ç', 'c'), 'È', 'e'), 'É', 'e'), 'Ê', 'e'), 'Ë', 'e') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'Ì', 'i'), 'Í', 'i'), 'Î', 'i'), 'Ï', 'i'), 'Ð', 'ð'), 'Ñ', 'n') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'Ò', 'o'), 'Ó', 'o'), 'Ô', 'o'), 'Õ', 'o'), 'Ö', 'o'), 'Ø', 'ø') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'Ù', 'u'), 'Ú', 'u'), 'Û', 'u'), 'Ü', 'u'), 'Ý', 'y'), 'Þ', 'þ') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'ß', 'ss'), 'à', 'a'), 'á', 'a'), 'â', 'a'), 'ã', 'a'), 'ä', 'a') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'å', 'a'), 'ç', 'c'), 'è', 'e'), 'é', 'e'), 'ê', 'e'), 'ë', 'e') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'ì', 'i'), 'í', 'i'), 'î', 'i'), 'ï', 'i'), 'ñ', 'n'), 'ò', 'o') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'ó', 'o'), 'ô', 'o'), 'õ', 'o'), 'ö', 'o'), 'ù', 'u'), 'ú', 'u') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'û', 'u'), 'ü', 'u'), 'ý', 'y'), 'ÿ', 'y'), '̀', ''), '́', '') WHERE id = NEW.id;
  UPDATE animals SET name_key = replace(replace(replace(replace(replace(name_key, '̂', ''), '̃', ''), '̈', ''), '̊', ''), '̧', '') WHERE id = NEW.id;
END;

CREATE TRIGGER fruits_name_key_after_insert AFTER INSERT ON fruits
WHEN NEW.name_key IS NULL
BEGIN
  UPDATE fruits SET name_key = lower(NEW.name) WHERE id = NEW.id;
  UPDATE fruits SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'À', 'à'), 'Á', 'á'), 'Â', 'â'), 'Ã', 'ã'), 'Ä', 'ä'), 'Å', 'å') WHERE id = NEW.id;
  UPDATE fruits SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'Æ', 'æ'), 'Ç', 'ç'), 'È', 'è'), 'É', 'é'), 'Ê', 'ê'), 'Ë', 'ë') WHERE id = NEW.id;
  UPDATE fruits SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'Ì', 'ì'), 'Í', 'í'), 'Î', 'î'), 'Ï', 'ï'), 'Ð', 'ð'), 'Ñ', 'ñ') WHERE id = NEW.id;
  UPDATE fruits SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'Ò', 'ò'), 'Ó', 'ó'), 'Ô', 'ô'), 'Õ', 'õ'), 'Ö', 'ö'), 'Ø', 'ø') WHERE id = NEW.id;
  UPDATE fruits SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'Ù', 'ù'), 'Ú', 'ú'), 'Û', 'û'), 'Ü', 'ü'), 'Ý', 'ý'), 'Þ', 'þ') WHERE id = NEW.id;
  UPDATE fruits SET name_key = replace(name_key, 'ß', 'ss') WHERE id = NEW.id;
END;

CREATE TRIGGER fruits_name_key_after_update AFTER UPDATE OF name ON fruits
WHEN NEW.name_key IS OLD.name_key AND NEW.name IS NOT OLD.name
BEGIN
  UPDATE fruits SET name_key = lower(NEW.name) WHERE id = NEW.id;
  UPDATE fruits SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'À', 'à'), 'Á', 'á'), 'Â', 'â'), 'Ã', 'ã'), 'Ä', 'ä'), 'Å', 'å') WHERE id = NEW.id;
  UPDATE fruits SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'Æ', 'æ'), 'Ç', 'ç'), 'È', 'è'), 'É', 'é'), 'Ê', 'ê'), 'Ë', 'ë') WHERE id = NEW.id;
  UPDATE fruits SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'Ì', 'ì'), 'Í', 'í'), 'Î', 'î'), 'Ï', 'ï'), 'Ð', 'ð'), 'Ñ', 'ñ') WHERE id = NEW.id;
  UPDATE fruits SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'Ò', 'ò'), 'Ó', 'ó'), 'Ô', 'ô'), 'Õ', 'õ'), 'Ö', 'ö'), 'Ø', 'ø') WHERE id = NEW.id;
  UPDATE fruits SET name_key = replace(replace(replace(replace(replace(replace(name_key, 'Ù', 'ù'), 'Ú', 'ú'), 'Û', 'û'), 'Ü', 'ü'), 'Ý', 'ý'), 'Þ', 'þ') WHERE id = NEW.id;
  UPDATE fruits SET name_key = replace(name_key, 'ß', 'ss') WHERE id = NEW.id;
END;
