#!/usr/bin/env bash
# scripts/bench.sh [inspector-bench options...]
#
# The performance check of README "Performance": builds in release mode (Swift stdlib and
# Foundation linked statically, as the start-up target needs), prints the machine (cores, CPU,
# SQLite), runs inspector-bench (in-process ratios against hand-written C API baselines; options
# such as --json or --workload are passed on), then measures whole processes on the cached
# 1,000,000-suspect case file: `inspector show` against the sqlite3 shell doing the same look-up,
# `inspector rank` against the shell running the plain scoring query, rank's peak memory, the
# streaming listings (scripts/bench-streaming.sh: list --json and sql against the shell, peak
# memory of list --json and rank --all, list | head -1), and backup and restore against the
# shell's .backup, .restore and checks (scripts/bench-backup.sh).
#
# Exit status: 0 when every check and target holds, otherwise non-zero (after printing all).
# Builds and caches the datasets on first use (a few minutes); $INSPECTOR_BENCH_CACHE moves the
# cache (default $TMPDIR/inspector-bench). $SHOW_RUNS (default 30) and $RANK_RUNS (default 3)
# set the whole-process repetitions, $STREAM_RUNS (default 3) those of the streaming section;
# the figures are medians.
set -uo pipefail
cd "$(dirname "$0")/.."

status=0
large=1000000
show_runs=${SHOW_RUNS:-30}
rank_runs=${RANK_RUNS:-3}

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

echo "==> inspector rank --incident 1 --limit 20, whole process ($rank_runs runs each)"
rank_sql=$("$bin/inspector-bench" --rank-sql) || exit 1
ours_ids=$("$bin/inspector" --db "$db" rank --incident 1 --limit 20 --format csv | tail -n +2 | cut -d, -f2)
shell_ids=$(sqlite3 -readonly "$db" "$rank_sql" | cut -d'|' -f1)
if [ "$ours_ids" != "$shell_ids" ]; then
  echo "bench.sh: inspector rank and the plain SQL disagree on the top 20" >&2
  status=1
fi
ours=() shell=()
for _ in $(seq "$rank_runs"); do
  ours+=("$(elapsed_ms "$bin/inspector" --db "$db" rank --incident 1 --limit 20)")
  shell+=("$(elapsed_ms sqlite3 -readonly "$db" "$rank_sql")")
done
ours_ms=$(printf '%s\n' "${ours[@]}" | median)
shell_ms=$(printf '%s\n' "${shell[@]}" | median)
verdict=$(awk -v o="$ours_ms" -v s="$shell_ms" 'BEGIN {
  printf "ratio %.4f; target at most 0.10: %s", o / s, (o <= 0.10 * s) ? "ok" : "MISSED" }')
echo "inspector rank: ${ours_ms} ms; sqlite3 shell, plain SQL: ${shell_ms} ms; same top 20; $verdict"
[[ $verdict == *MISSED* ]] && status=3

if [ -x /usr/bin/time ]; then
  peak_kib=$(/usr/bin/time -v "$bin/inspector" --db "$db" rank --incident 1 --limit 20 2>&1 \
    >/dev/null | awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}')
  verdict=$(awk -v k="$peak_kib" 'BEGIN {
    printf "%.1f MiB; target under 64 MiB: %s", k / 1024, (k < 65536) ? "ok" : "MISSED" }')
  echo "inspector rank peak memory (maximum resident set): $verdict"
  [[ $verdict == *MISSED* ]] && status=3
else
  echo "bench.sh: no /usr/bin/time (apt-get install time); peak memory not measured" >&2
fi

# The streaming listings: list --json, sql --format csv and --json against the shell, peak
# memory of list --json and rank --all, and list | head -1.
scripts/bench-streaming.sh "$bin/inspector" "$db" || status=3

echo "==> backup and restore, whole process, $large suspects (scripts/bench-backup.sh)"
scripts/bench-backup.sh "$bin/inspector" "$db" || status=$?
exit "$status"
