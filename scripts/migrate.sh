#!/usr/bin/env bash
# scripts/migrate.sh DB
#
# Migrates the case database DB with a safety net: backup, `inspector migrate up`,
# `inspector check`; on any failure restores the pre-migration backup and exits non-zero.
# Nothing is done (and no backup made) when DB is already up to date. Uses `inspector` from
# PATH, or the binary named by $INSPECTOR. The backup is kept next to DB as
# DB.pre-migrate-TIMESTAMP.sqlite. (docs/operations.md "scripts/migrate.sh DB")
set -euo pipefail

fail() { echo "migrate.sh: error: $1" >&2; exit "${2:-1}"; }

[ $# -eq 1 ] || { echo "usage: $(basename "$0") DB" >&2; exit 64; }
db=$1
inspector=${INSPECTOR:-inspector}
command -v "$inspector" >/dev/null 2>&1 || fail "cannot run '$inspector' (set INSPECTOR)" 69
[ -f "$db" ] || fail "no database at $db" 66

pending=$("$inspector" --db "$db" migrate up --dry-run --format csv) \
  || fail "cannot read the migration state of $db" 65
if [ "$(printf '%s\n' "$pending" | grep -c .)" -le 1 ]; then
  echo "up to date: $db"
  exit 0
fi

stamp() { date -u +%Y%m%dT%H%M%SZ; }
backup="$db.pre-migrate-$(stamp).sqlite"
while [ -e "$backup" ]; do
  sleep 1
  backup="$db.pre-migrate-$(stamp).sqlite"
done
"$inspector" --db "$db" backup "$backup" >/dev/null || fail "backup failed; nothing was migrated"
echo "backup: $backup"

status=0
"$inspector" --db "$db" migrate up || status=$?
if [ "$status" -eq 0 ]; then
  "$inspector" --db "$db" check >/dev/null || status=$?
fi
if [ "$status" -ne 0 ]; then
  echo "migrate.sh: migration or check failed (exit $status); restoring $backup" >&2
  "$inspector" --db "$db" restore "$backup" --force >/dev/null \
    || fail "RESTORE FAILED: the pre-migration backup is $backup" 70
  echo "migrate.sh: restored the database from $backup" >&2
  exit "$status"
fi
echo "migrated: $db"
