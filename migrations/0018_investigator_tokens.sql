-- Schema v18: the investigators who may sign in to the desk in the browser, each with a
-- personal access token (docs/web-desk.md "Signing in, and who may do what").
--
-- investigator_tokens: one row per investigator:
--   name: the investigator's name, the actor of every change they make through the desk;
--     1 to 64 characters, no control character, no space at either end; unique ignoring the
--     case of ASCII letters (the index investigator_tokens_name_key on lower(name));
--   token_hash: the SHA-256 of the token's text (32 bytes); the token itself is printed once
--     by 'inspector serve token add' and stored nowhere;
--   created_at: when the token was made, UTC, as the history writes times.
-- Not a recorded table: adding or revoking a token is no change of the case, so the history,
-- undo, diff and changesets never see it (a backup copies it as it copies every table).

CREATE TABLE investigator_tokens (
  name TEXT PRIMARY KEY
    CHECK (length(name) BETWEEN 1 AND 64 AND name = trim(name)
      AND name NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || ']*'),
  token_hash BLOB NOT NULL UNIQUE CHECK (length(token_hash) = 32),
  created_at TEXT NOT NULL CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z')
) STRICT;

CREATE UNIQUE INDEX investigator_tokens_name_key ON investigator_tokens (lower(name));
