-- Schema v10: search text folded as names are (docs/search.md "What matches").
--
-- The index holds each record's text twice: `shown`, as stored (for the matches shown), and
-- `text`, folded by inspector (case and accents as for names, `ß` as `ss`, Greek final sigma,
-- every Chinese, Japanese or Korean character a word of its own), which FTS5 searches.
-- SQL cannot fold as inspector does, so this migration rebuilds the index empty and queues
-- every record; inspector indexes the queue right after migrating, and before every write
-- commits.

DROP TABLE search_index;

CREATE VIRTUAL TABLE search_index USING fts5 (
  kind UNINDEXED, ref UNINDEXED, shown UNINDEXED, text,
  tokenize = 'unicode61 remove_diacritics 2'
);

DELETE FROM search_queue;
INSERT INTO search_queue (kind, ref) SELECT 'suspect', id FROM animals;
INSERT INTO search_queue (kind, ref) SELECT 'alibi', animal_id FROM alibis WHERE statement <> '';
INSERT INTO search_queue (kind, ref) SELECT 'incident', id FROM incidents WHERE notes <> '';
