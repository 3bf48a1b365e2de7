-- Schema v8: full-text search over suspects' names and species, alibis and incident notes
-- (docs/search.md), with SQLite's FTS5.
--
-- inspector's connections keep trusted_schema off, under which a trigger may not write a
-- virtual table; so the triggers below only note which records changed, in the ordinary table
-- search_queue (each row once: guarded by NOT EXISTS rather than OR IGNORE, since the conflict
-- clause of an outer statement, an upsert's included, overrides a trigger's) (writes from the sqlite3 shell, sqlite-utils or Python included), and
-- `inspector search` brings the index up to date from the queue before it searches, in one
-- transaction. The index's rowid encodes the record: id * 4 + 1 for a suspect, animal_id * 4 + 2
-- for an alibi, id * 4 + 3 for an incident (ids within ±2^60).

CREATE VIRTUAL TABLE search_index USING fts5 (
  kind UNINDEXED, ref UNINDEXED, text, tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TABLE search_queue (
  kind TEXT NOT NULL CHECK (kind IN ('suspect', 'alibi', 'incident')),
  ref INTEGER NOT NULL,
  PRIMARY KEY (kind, ref)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER animals_search_after_insert AFTER INSERT ON animals
BEGIN
  INSERT INTO search_queue (kind, ref) SELECT 'suspect', NEW.id
  WHERE NOT EXISTS (SELECT 1 FROM search_queue WHERE kind = 'suspect' AND ref = NEW.id);
END;

CREATE TRIGGER animals_search_after_update AFTER UPDATE OF id, name, species ON animals
BEGIN
  INSERT INTO search_queue (kind, ref) SELECT 'suspect', OLD.id
  WHERE NOT EXISTS (SELECT 1 FROM search_queue WHERE kind = 'suspect' AND ref = OLD.id);
  INSERT INTO search_queue (kind, ref) SELECT 'suspect', NEW.id
  WHERE NOT EXISTS (SELECT 1 FROM search_queue WHERE kind = 'suspect' AND ref = NEW.id);
END;

CREATE TRIGGER animals_search_after_delete AFTER DELETE ON animals
BEGIN
  INSERT INTO search_queue (kind, ref) SELECT 'suspect', OLD.id
  WHERE NOT EXISTS (SELECT 1 FROM search_queue WHERE kind = 'suspect' AND ref = OLD.id);
END;

CREATE TRIGGER alibis_search_after_insert AFTER INSERT ON alibis
BEGIN
  INSERT INTO search_queue (kind, ref) SELECT 'alibi', NEW.animal_id
  WHERE NOT EXISTS (SELECT 1 FROM search_queue WHERE kind = 'alibi' AND ref = NEW.animal_id);
END;

CREATE TRIGGER alibis_search_after_update AFTER UPDATE OF animal_id, statement ON alibis
BEGIN
  INSERT INTO search_queue (kind, ref) SELECT 'alibi', OLD.animal_id
  WHERE NOT EXISTS (SELECT 1 FROM search_queue WHERE kind = 'alibi' AND ref = OLD.animal_id);
  INSERT INTO search_queue (kind, ref) SELECT 'alibi', NEW.animal_id
  WHERE NOT EXISTS (SELECT 1 FROM search_queue WHERE kind = 'alibi' AND ref = NEW.animal_id);
END;

CREATE TRIGGER alibis_search_after_delete AFTER DELETE ON alibis
BEGIN
  INSERT INTO search_queue (kind, ref) SELECT 'alibi', OLD.animal_id
  WHERE NOT EXISTS (SELECT 1 FROM search_queue WHERE kind = 'alibi' AND ref = OLD.animal_id);
END;

CREATE TRIGGER incidents_search_after_insert AFTER INSERT ON incidents
BEGIN
  INSERT INTO search_queue (kind, ref) SELECT 'incident', NEW.id
  WHERE NOT EXISTS (SELECT 1 FROM search_queue WHERE kind = 'incident' AND ref = NEW.id);
END;

CREATE TRIGGER incidents_search_after_update AFTER UPDATE OF id, notes ON incidents
BEGIN
  INSERT INTO search_queue (kind, ref) SELECT 'incident', OLD.id
  WHERE NOT EXISTS (SELECT 1 FROM search_queue WHERE kind = 'incident' AND ref = OLD.id);
  INSERT INTO search_queue (kind, ref) SELECT 'incident', NEW.id
  WHERE NOT EXISTS (SELECT 1 FROM search_queue WHERE kind = 'incident' AND ref = NEW.id);
END;

CREATE TRIGGER incidents_search_after_delete AFTER DELETE ON incidents
BEGIN
  INSERT INTO search_queue (kind, ref) SELECT 'incident', OLD.id
  WHERE NOT EXISTS (SELECT 1 FROM search_queue WHERE kind = 'incident' AND ref = OLD.id);
END;

-- The records that exist now.
INSERT INTO search_index (rowid, kind, ref, text)
SELECT id * 4 + 1, 'suspect', id, name || ' ' || species FROM animals
WHERE id BETWEEN -1152921504606846976 AND 1152921504606846976;
INSERT INTO search_index (rowid, kind, ref, text)
SELECT animal_id * 4 + 2, 'alibi', animal_id, statement FROM alibis
WHERE statement <> '' AND animal_id BETWEEN -1152921504606846976 AND 1152921504606846976;
INSERT INTO search_index (rowid, kind, ref, text)
SELECT id * 4 + 3, 'incident', id, notes FROM incidents
WHERE notes <> '' AND id BETWEEN -1152921504606846976 AND 1152921504606846976;
