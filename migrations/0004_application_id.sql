-- Schema v4: marks the file as a Fruit Inspectors case database.
--
-- PRAGMA application_id stores a 32-bit number in the database header (offset 68) so that a
-- case file can be told apart from any other SQLite file without running its schema:
-- `restore` refuses a file without this mark. The value is the ASCII letters "FRIN"
-- (0x4652494E). It is written inside the migration's transaction, like any other change.
-- SQLite: https://sqlite.org/pragma.html#pragma_application_id

PRAGMA application_id = 1179797838;
