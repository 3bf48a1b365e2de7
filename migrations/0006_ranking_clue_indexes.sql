-- Schema v6: indexes that let the clue ranking count and list the suspects each clue points at
-- without reading every suspect's rows (docs/ranking.md "The top-k plan").
--
-- animals_paw_size: the suspects with a given paw size, and every suspect's id in one small
-- index (the ranking reads both in one pass when a clue set must be built).
-- alibis_stated: the suspects whose alibi says something, i.e. is not empty or only white space.
-- The expression is the ranking's own: trim() with every character of Unicode's White_Space
-- property, written out with char() so that a query using the same expression can use the index.

CREATE INDEX animals_paw_size ON animals (paw_size);

CREATE INDEX alibis_stated ON alibis (animal_id)
WHERE trim(statement, char(9, 10, 11, 12, 13, 32, 133, 160, 5760, 8192, 8193, 8194, 8195, 8196,
  8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288)) <> '';
