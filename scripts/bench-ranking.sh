#!/usr/bin/env bash
# scripts/bench-ranking.sh INSPECTOR BENCH [N]: `inspector rank --incident 1 --limit 20`, whole
# process, against the sqlite3 shell running the plain scoring query (score every suspect, sort,
# keep 20), on each dataset of the ranking's family (`inspector-bench --kinds`: the friendly
# case and the cases where few suspects or none can match every clue) with N suspects (default
# 1,000,000). For each: the same top 20 (ids in order), the ratio of medians (target at most
# 0.10), and peak memory (target under 64 MiB). Called by scripts/bench.sh; $RANK_RUNS (default
# 3) sets the repetitions. Exit status: 0 when all hold, 1 on different results, 3 on a missed
# target.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.sh

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: scripts/bench-ranking.sh INSPECTOR BENCH [N]" >&2
  exit 1
fi
inspector=$1 bench=$2 large=${3:-1000000}
runs=${RANK_RUNS:-3}
status=0
rank_sql=$("$bench" --rank-sql) || exit 1

echo "==> inspector rank --incident 1 --limit 20, whole process, $large suspects, each kind ($runs runs each, interleaved)"
for kind in $("$bench" --kinds); do
  db=$("$bench" --dataset "$large" --kind "$kind") || exit 1
  # ndjson: one suspect a line whatever its alibi holds (CSV fields may span lines).
  ours_ids=$("$inspector" --db "$db" rank --incident 1 --limit 20 --format ndjson |
    sed -E 's/^\{"rank":[0-9]+,"id":([0-9]+),.*/\1/')
  shell_ids=$(sqlite3 -readonly "$db" "$rank_sql" | cut -d'|' -f1)
  if [ -z "$ours_ids" ] || [ "$ours_ids" != "$shell_ids" ]; then
    echo "bench-ranking.sh: $kind: inspector rank and the plain SQL disagree on the top 20" >&2
    status=1
  fi
  ours=() shell=()
  for _ in $(seq "$runs"); do
    ours+=("$(elapsed_ms "$inspector" --db "$db" rank --incident 1 --limit 20)")
    shell+=("$(elapsed_ms sqlite3 -readonly "$db" "$rank_sql")")
  done
  ours_ms=$(printf '%s\n' "${ours[@]}" | median)
  shell_ms=$(printf '%s\n' "${shell[@]}" | median)
  if ! verdict "rank, $kind (same top 20)" "$ours_ms" "$shell_ms" 0.10; then
    [ "$status" -eq 0 ] && status=3
  fi
  if [ -x /usr/bin/time ]; then
    kib=$(peak_kib "$inspector" --db "$db" rank --incident 1 --limit 20)
    awk -v k="$kib" -v kind="$kind" 'BEGIN {
      printf "%-58s %7.1f MiB (target < 64 MiB)  %s\n", "rank, " kind ", peak memory", k / 1024, (k < 65536) ? "PASS" : "FAIL" }'
    [ "$kib" -ge 65536 ] && [ "$status" -eq 0 ] && status=3
  fi
done
exit "$status"
