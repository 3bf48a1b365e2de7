#!/usr/bin/env bash
# scripts/bench-backup.sh INSPECTOR DB
#
# The backup and restore section of scripts/bench.sh (README "Performance"), runnable on its
# own with a built inspector and a case file (bench.sh passes the release binary and the cached
# 1,000,000-suspect file, which is copied first and never written). Whole processes, medians of
# $BACKUP_RUNS (default 3) interleaved runs, each line with its target:
#   - `inspector backup DEST` (quick_check of the copy) against the sqlite3 shell's `.backup`
#     and then `PRAGMA quick_check` of the copy: within 1.25x;
#   - `inspector backup DEST --verify none` against a bare `.backup`: within 1.25x;
#   - `inspector restore SRC --force` against the shell's `PRAGMA integrity_check` of SRC and
#     then `.restore SRC`: within 1.25x;
#   - peak memory of `backup` and `restore`: under 64 MiB each.
#
# Exit status: 0 when every target holds, 3 when one is missed, 1 when the tools are missing.
set -uo pipefail
. "$(dirname "$0")/bench-lib.sh"

section_arguments "$(basename "$0")" "$@"
inspector=$1
runs=${BACKUP_RUNS:-3}
status=0
work=$(mktemp -d "${TMPDIR:-/tmp}/inspector-bench-backup.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cp "$2" "$work/case.sqlite" || exit 1
db=$work/case.sqlite
sqlite3 "$db" ".backup $work/source.sqlite" || exit 1

shell_backup_quick() { sqlite3 "$db" ".backup $work/shell.sqlite" && sqlite3 "$work/shell.sqlite" "PRAGMA quick_check"; }
shell_backup() { sqlite3 "$db" ".backup $work/shell.sqlite"; }
shell_restore() { sqlite3 "$work/source.sqlite" "PRAGMA integrity_check" && sqlite3 "$db" ".restore $work/source.sqlite"; }

ours_quick=() ours_none=() base_quick=() base_none=() ours_restore=() base_restore=()
for _ in $(seq "$runs"); do
  ours_quick+=("$(elapsed_ms "$inspector" --db "$db" backup "$work/ours.sqlite")")
  base_quick+=("$(elapsed_ms shell_backup_quick)")
  ours_none+=("$(elapsed_ms "$inspector" --db "$db" backup "$work/ours.sqlite" --verify none)")
  base_none+=("$(elapsed_ms shell_backup)")
  ours_restore+=("$(elapsed_ms "$inspector" --db "$db" restore "$work/source.sqlite" --force)")
  base_restore+=("$(elapsed_ms shell_restore)")
done
m() { printf '%s\n' "$@" | median; }
pages=$(sqlite3 "$db" "PRAGMA page_count")
echo "case file: $pages pages of $(sqlite3 "$db" "PRAGMA page_size") bytes; $runs runs each, medians"
verdict "backup (quick_check) vs .backup + quick_check" "$(m "${ours_quick[@]}")" "$(m "${base_quick[@]}")" 1.25 || status=3
verdict "backup --verify none vs .backup" "$(m "${ours_none[@]}")" "$(m "${base_none[@]}")" 1.25 || status=3
verdict "restore vs integrity_check + .restore" "$(m "${ours_restore[@]}")" "$(m "${base_restore[@]}")" 1.25 || status=3
for command in "backup $work/ours.sqlite" "restore $work/source.sqlite --force"; do
  # shellcheck disable=SC2086 # the command's words are meant to split
  kib=$(peak_kib "$inspector" --db "$db" $command)
  memory_verdict "${command%% *}" "$kib" || status=3
done
exit "$status"
