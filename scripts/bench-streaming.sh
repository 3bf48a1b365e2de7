#!/usr/bin/env bash
# scripts/bench-streaming.sh INSPECTOR DB
#
# The streaming section of scripts/bench.sh (README "Performance"), runnable on its own with a
# built inspector and a case file (bench.sh passes the release binary and the cached
# 1,000,000-suspect file). Whole processes, medians of $STREAM_RUNS (default 3) interleaved
# runs, each line with its target:
#   - `inspector list --json` against the sqlite3 shell's `-json` output of the same join (one
#     object per suspect with list's keys, favourites in position order as a JSON array):
#     within 1.5x;
#   - `inspector sql "SELECT * FROM animals" --format csv` against `sqlite3 -csv -header`, and
#     `--json` against `sqlite3 -json`: within 1.25x each;
#   - peak memory (maximum resident set, /usr/bin/time) of `list --json` and `rank --all`:
#     under 64 MiB each;
#   - `inspector list | head -1`: under 1 s (the first page is written at once and the run
#     ends when head closes the pipe).
#
# Exit status: 0 when every target holds, 3 when one is missed, 1 when the tools are missing.
set -uo pipefail
. "$(dirname "$0")/bench-lib.sh"

section_arguments "$(basename "$0")" "$@"
inspector=$1
db=$2
runs=${STREAM_RUNS:-3}
status=0


# `list --json` in SQL: the same keys in the same order, the favourites' names (or list's flag
# for a missing fruit) in position order as a JSON array, the schedule as an object, the label
# from the level as SuspicionLabel draws it.
list_sql="SELECT a.id AS id, a.name AS name, a.species AS species, a.emoji AS emoji,
  a.paw_size AS paw_size,
  (SELECT json_group_array(fruit) FROM (
     SELECT coalesce(f.name, '(missing fruit id ' || ff.fruit_id || ')') AS fruit
     FROM favorite_fruits ff LEFT JOIN fruits f ON f.id = ff.fruit_id
     WHERE ff.animal_id = a.id ORDER BY ff.position, ff.fruit_id)) AS favorite_fruits,
  coalesce(al.statement, '') AS alibi,
  CASE WHEN s.animal_id IS NULL THEN NULL
       ELSE json_object('sleep', s.sleep_at, 'wake', s.wake_at) END AS sleep_schedule,
  coalesce(l.level, 0.0) AS suspicion_level,
  CASE WHEN coalesce(l.level, 0.0) < 0.2 THEN 'Unlikely'
       WHEN coalesce(l.level, 0.0) < 0.5 THEN 'Fishy'
       WHEN coalesce(l.level, 0.0) < 0.9 THEN 'Very suspicious'
       ELSE 'Extremely suspicious!' END AS suspicion_label
FROM animals a
LEFT JOIN alibis al ON al.animal_id = a.id
LEFT JOIN sleep_schedules s ON s.animal_id = a.id
LEFT JOIN suspicion_levels l ON l.animal_id = a.id
ORDER BY a.id;"
animals_sql="SELECT * FROM animals"

# compare NAME MAX_RATIO OURS_COMMAND... -- SHELL_COMMAND...: interleaved runs, medians, verdict.
compare() {
  local name=$1 max=$2
  shift 2
  local ours_cmd=() shell_cmd=()
  while [ "$1" != "--" ]; do
    ours_cmd+=("$1")
    shift
  done
  shift
  shell_cmd=("$@")
  local ours=() shell=()
  for _ in $(seq "$runs"); do
    ours+=("$(elapsed_ms "${ours_cmd[@]}")")
    shell+=("$(elapsed_ms "${shell_cmd[@]}")")
  done
  local ours_ms shell_ms verdict
  ours_ms=$(printf '%s\n' "${ours[@]}" | median)
  shell_ms=$(printf '%s\n' "${shell[@]}" | median)
  verdict=$(awk -v o="$ours_ms" -v s="$shell_ms" -v m="$max" 'BEGIN {
    printf "ratio %.2f; target within %.2fx: %s", o / s, m, (o <= m * s) ? "ok" : "MISSED" }')
  echo "$name: ${ours_ms} ms; sqlite3 shell: ${shell_ms} ms; $verdict"
  [[ $verdict == *MISSED* ]] && status=3
}

echo "==> streaming listings, whole process ($runs runs each, interleaved)"
compare "inspector list --json" 1.5 "$inspector" --db "$db" list --json \
  -- sqlite3 -readonly -json "$db" "$list_sql"
compare "inspector sql '$animals_sql' --format csv" 1.25 \
  "$inspector" --db "$db" sql "$animals_sql" --format csv \
  -- sqlite3 -readonly -csv -header "$db" "$animals_sql"
compare "inspector sql '$animals_sql' --json" 1.25 \
  "$inspector" --db "$db" sql "$animals_sql" --json \
  -- sqlite3 -readonly -json "$db" "$animals_sql"

if [ -x /usr/bin/time ]; then
  for command in "list --json" "rank --all"; do
    # Word splitting of $command is wanted: it is the subcommand and its flags.
    # shellcheck disable=SC2086
    peak_kib=$(/usr/bin/time -f %M "$inspector" --db "$db" $command 2>&1 >/dev/null | tail -1)
    verdict=$(awk -v k="$peak_kib" 'BEGIN {
      printf "%.1f MiB; target under 64 MiB: %s", k / 1024, (k < 65536) ? "ok" : "MISSED" }')
    echo "inspector $command peak memory (maximum resident set): $verdict"
    [[ $verdict == *MISSED* ]] && status=3
  done
else
  echo "bench-streaming.sh: no /usr/bin/time (apt-get install time); peak memory not measured" >&2
  status=3
fi

first_line() { "$inspector" --db "$db" list | head -1; }
times=()
for _ in $(seq "$runs"); do times+=("$(elapsed_ms first_line)"); done
head_ms=$(printf '%s\n' "${times[@]}" | median)
verdict=$(awk -v t="$head_ms" 'BEGIN { printf "target under 1000 ms: %s", (t < 1000) ? "ok" : "MISSED" }')
echo "inspector list | head -1: ${head_ms} ms; $verdict"
[[ $verdict == *MISSED* ]] && status=3
exit "$status"
