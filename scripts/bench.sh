#!/usr/bin/env bash
# scripts/bench.sh [inspector-bench options...]
#
# The performance check of README "Performance": builds in release mode (Swift stdlib and
# Foundation linked statically, as the start-up target needs), prints the machine (cores, CPU,
# SQLite), runs inspector-bench (in-process ratios against hand-written C API baselines; options
# such as --json or --workload are passed on), then measures whole processes on the cached
# 1,000,000-suspect case file: `inspector show` against the sqlite3 shell doing the same look-up,
# `inspector rank` against the shell running the plain scoring query and its peak memory on each
# dataset of the ranking's family (scripts/bench-ranking.sh), the
# streaming listings (scripts/bench-streaming.sh: list --json and sql against the shell, peak
# memory of list --json and rank --all, list | head -1), backup and restore against the
# shell's .backup, .restore and checks (scripts/bench-backup.sh), and the history at scale on
# the cached 1,000,000-suspect file WITH its history (scripts/bench-history.sh: list --as-of
# against list and its peak memory, show --as-of, check against the shell's integrity_check,
# undo of an import against the import; then scripts/bench-backup.sh on that file), and
# `inspector serve` under 32 concurrent readers and a writer against Datasette
# (scripts/bench-serve.sh).
#
# Exit status: 0 when every check and target holds, otherwise non-zero (after printing all).
# Builds and caches the datasets on first use (a few minutes); $INSPECTOR_BENCH_CACHE moves the
# cache (default $TMPDIR/inspector-bench). $SHOW_RUNS (default 30) and $RANK_RUNS (default 3)
# set the whole-process repetitions, $STREAM_RUNS (default 3) those of the streaming section,
# $HISTORY_RUNS (default 3) and $UNDO_SUSPECTS (default 100,000) the history section's; the
# figures are medians.
set -uo pipefail
cd "$(dirname "$0")/.."

status=0
large=1000000
show_runs=${SHOW_RUNS:-30}

echo "==> machine"
echo "cores (nproc): $(nproc)"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "SQLite (library): $(pkg-config --modversion sqlite3 2>/dev/null || echo unknown)"
echo "sqlite3 shell: $(sqlite3 --version 2>/dev/null | cut -d' ' -f1 || echo missing)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine adds noise)"

echo "==> build (release, static Swift stdlib and Foundation)"
# Foundation's static archive trips the linker's mktemp warning; it is not ours, so it is hidden.
if ! swift build -c release --static-swift-stdlib 2>&1 | grep -v "the use of \`mktemp'"; then
  echo "bench.sh: the build failed" >&2
  exit 1
fi
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)

echo "==> inspector-bench $*"
"$bin/inspector-bench" "$@" || status=$?

db=$("$bin/inspector-bench" --dataset "$large") || exit 1
if ! command -v sqlite3 >/dev/null 2>&1; then
  echo "bench.sh: no sqlite3 shell; skipping the whole-process comparisons" >&2
  exit "$status"
fi

. scripts/bench-lib.sh

echo "==> inspector show, whole process, $large suspects ($show_runs runs each, interleaved)"
species="species 750001"
show_sql="SELECT a.id, a.name, a.species, a.paw_size, a.emoji, coalesce(al.statement, ''),
  s.sleep_at, s.wake_at, coalesce(l.level, 0.0),
  (SELECT group_concat(name, ', ') FROM (SELECT f.name FROM favorite_fruits ff
     JOIN fruits f ON f.id = ff.fruit_id WHERE ff.animal_id = a.id ORDER BY ff.position))
FROM animals a LEFT JOIN alibis al ON al.animal_id = a.id
LEFT JOIN sleep_schedules s ON s.animal_id = a.id
LEFT JOIN suspicion_levels l ON l.animal_id = a.id
WHERE a.species_key = '$species';"
"$bin/inspector" --db "$db" show "$species" >/dev/null || status=1
ours=() shell=()
for _ in $(seq "$show_runs"); do
  ours+=("$(elapsed_ms "$bin/inspector" --db "$db" show "$species")")
  shell+=("$(elapsed_ms sqlite3 -readonly "$db" "$show_sql")")
done
ours_ms=$(printf '%s\n' "${ours[@]}" | median)
shell_ms=$(printf '%s\n' "${shell[@]}" | median)
verdict=$(awk -v o="$ours_ms" -v s="$shell_ms" 'BEGIN {
  printf "ratio %.2f; target under 50 ms and within 3x: %s", o / s, (o < 50 && o <= 3 * s) ? "ok" : "MISSED" }')
echo "inspector show: ${ours_ms} ms; sqlite3 shell: ${shell_ms} ms; $verdict"
[[ $verdict == *MISSED* ]] && status=3

# The ranking on each dataset of its family, against the shell's plain scoring query.
scripts/bench-ranking.sh "$bin/inspector" "$bin/inspector-bench" "$large" || status=$?

# The streaming listings: list --json, sql --format csv and --json against the shell, peak
# memory of list --json and rank --all, and list | head -1.
scripts/bench-streaming.sh "$bin/inspector" "$db" || status=3

echo "==> backup and restore, whole process, $large suspects (scripts/bench-backup.sh)"
scripts/bench-backup.sh "$bin/inspector" "$db" || status=$?

# The history at scale: reads as of a point, check and undo on the file with its history, then
# backup and restore of that file.
scripts/bench-history.sh "$bin/inspector" "$bin/inspector-bench" "$large" || status=$?
history_db=$("$bin/inspector-bench" --dataset "$large" --history) || exit 1
echo "==> backup and restore, whole process, $large suspects with their history (scripts/bench-backup.sh)"
scripts/bench-backup.sh "$bin/inspector" "$history_db" || status=$?

# The desk under load: 32 readers of the suspects API and the ranking while one writer edits,
# against Datasette's table JSON on the same file (scripts/bench-serve.sh).
echo "==> inspector serve under load, $large suspects (scripts/bench-serve.sh)"
scripts/bench-serve.sh "$bin/inspector" "$db" || status=$?
exit "$status"
