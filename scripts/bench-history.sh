#!/usr/bin/env bash
# scripts/bench-history.sh INSPECTOR BENCH [N]
#
# The history-at-scale section of scripts/bench.sh (README "Performance"), runnable on its own
# with a built inspector and inspector-bench. Works on the cached case file of N generated
# suspects (default 1,000,000) WITH their history (`inspector-bench --dataset N --history`: every
# suspect's import, then ten later change sets; the last import's change set, note
# "bench: as-of point", is the point the reads go back to), never written: the undo runs on a
# copy. Whole processes, medians of $HISTORY_RUNS (default 3) interleaved runs, each line with
# its target:
#   - `inspector list --as-of POINT` against `inspector list`: within 3x; its peak memory
#     (maximum resident set, /usr/bin/time): under 64 MiB;
#   - `inspector show "species N*3/4+1" --as-of POINT` (a suspect changed after the point):
#     under 50 ms ($SHOW_RUNS runs, default 30);
#   - `inspector check` against the sqlite3 shell's `PRAGMA integrity_check` (opened as a user
#     opens a case file, so that CHECK constraints are verified as check's are; the -readonly
#     shell, which skips them, reported beside): within 1.25x; its peak memory: under 64 MiB;
#   - `inspector undo` of an import of $UNDO_SUSPECTS generated suspects (default 100,000, with
#     favourites and interviews, one change set on top of the file's history) against that
#     `inspector import`: within 1.5x; the undo's peak memory, on one more copy: under 64 MiB
#     (it streams the change set's changes; the import it undoes does not count).
# `restore` of the same file: scripts/bench.sh runs scripts/bench-backup.sh on it.
#
# Exit status: 0 when every target holds, 3 when one is missed, 1 when a command fails or the
# tools are missing.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.sh

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: scripts/bench-history.sh INSPECTOR BENCH [N]" >&2
  exit 1
fi
if ! command -v sqlite3 >/dev/null 2>&1 || [ ! -x /usr/bin/time ]; then
  echo "bench-history.sh: needs the sqlite3 shell and /usr/bin/time; skipping" >&2
  exit 1
fi
inspector=$1 bench=$2 large=${3:-1000000}
runs=${HISTORY_RUNS:-3} show_runs=${SHOW_RUNS:-30} undo_suspects=${UNDO_SUSPECTS:-100000}
status=0
db=$("$bench" --dataset "$large" --history) || exit 1
point=$(sqlite3 -readonly "$db" "SELECT id FROM history_change_sets WHERE note = 'bench: as-of point'")
if [ -z "$point" ]; then
  echo "bench-history.sh: no change set noted 'bench: as-of point' in $db" >&2
  exit 1
fi
species="species $((large * 3 / 4 + 1))"
work=$(mktemp -d "${TMPDIR:-/tmp}/inspector-bench-history.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
m() { printf '%s\n' "$@" | median; }
# failed NAME: a command that should have succeeded did not; the figures would mean nothing.
failed() {
  echo "bench-history.sh: $1 failed" >&2
  status=1
}
# missed: a target was missed (exit 3, unless a command failed: exit 1 says more).
missed() { [ "$status" -eq 1 ] || status=3; }

echo "==> history at scale, whole process, $large suspects with their history, as of change set $point ($runs runs each, interleaved)"
echo "case file: $(stat -c %s "$db") bytes; $(sqlite3 -readonly "$db" "SELECT count(*) FROM history_change_sets") change sets"

as_of=() now=()
for _ in $(seq "$runs"); do
  as_of+=("$(elapsed_ms "$inspector" --db "$db" list --as-of "$point")") || failed "list --as-of"
  now+=("$(elapsed_ms "$inspector" --db "$db" list)") || failed "list"
done
verdict "list --as-of vs list" "$(m "${as_of[@]}")" "$(m "${now[@]}")" 3 || missed
memory_verdict "list --as-of" "$(peak_kib "$inspector" --db "$db" list --as-of "$point")" || missed

times=()
for _ in $(seq "$show_runs"); do
  times+=("$(elapsed_ms "$inspector" --db "$db" show "$species" --as-of "$point")") ||
    failed "show --as-of"
done
limit_verdict "show \"$species\" --as-of" "$(m "${times[@]}")" 50 || missed

# The shell as a user runs it on a case file (read-write, here query-only so it cannot write),
# where integrity_check also verifies every row's CHECK constraints, as check's does; opened
# -readonly it skips them (about 30 % less work), printed beside for comparison.
ours=() shell=() readonly=()
for _ in $(seq "$runs"); do
  ours+=("$(elapsed_ms "$inspector" --db "$db" check)") || failed "check (it found a fault)"
  shell+=("$(elapsed_ms sqlite3 "$db" "PRAGMA query_only = 1" "PRAGMA integrity_check")")
  readonly+=("$(elapsed_ms sqlite3 -readonly "$db" "PRAGMA integrity_check")")
done
verdict "check vs integrity_check" "$(m "${ours[@]}")" "$(m "${shell[@]}")" 1.25 || missed
ratio=$(awk -v a="$(m "${ours[@]}")" -v b="$(m "${readonly[@]}")" 'BEGIN { printf "%.2f", a / b }')
printf '%-58s %7s ms vs %7s ms  ratio %5s (reported)\n' "check vs integrity_check, shell -readonly" \
  "$(m "${ours[@]}")" "$(m "${readonly[@]}")" "$ratio"
memory_verdict "check" "$(peak_kib "$inspector" --db "$db" check)" || missed

"$bench" --csv "$undo_suspects" --from "$large" >"$work/import.csv" || exit 1
imports=() undos=()
for _ in $(seq "$runs"); do
  cp "$db" "$work/case.sqlite" || exit 1
  rm -f "$work/case.sqlite-wal" "$work/case.sqlite-shm"
  imports+=("$(elapsed_ms "$inspector" --db "$work/case.sqlite" import "$work/import.csv")") ||
    failed "import"
  undos+=("$(elapsed_ms "$inspector" --db "$work/case.sqlite" undo)") || failed "undo"
done
suspects=$(sqlite3 -readonly "$work/case.sqlite" "SELECT count(*) FROM animals")
[ "$suspects" = "$(sqlite3 -readonly "$db" "SELECT count(*) FROM animals")" ] || failed "undo (suspects left)"
verdict "undo of an import of $undo_suspects suspects vs the import" "$(m "${undos[@]}")" "$(m "${imports[@]}")" 1.5 || missed
cp "$db" "$work/case.sqlite" || exit 1
rm -f "$work/case.sqlite-wal" "$work/case.sqlite-shm"
"$inspector" --db "$work/case.sqlite" import "$work/import.csv" >/dev/null || failed "import"
memory_verdict "undo of an import of $undo_suspects suspects" \
  "$(peak_kib "$inspector" --db "$work/case.sqlite" undo)" || missed
exit "$status"
