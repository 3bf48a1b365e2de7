# scripts/bench-lib.sh: helpers shared by the benchmark scripts (sourced, not run).

# Milliseconds the command takes, with bash's clock (no extra process in the timed part);
# returns the command's exit status.
elapsed_ms() {
  local start=$EPOCHREALTIME status=0
  "$@" >/dev/null 2>&1 || status=$?
  local end=$EPOCHREALTIME
  echo "$(((${end/./} - ${start/./}) / 1000))"
  return "$status"
}

# The median of the numbers on stdin, one a line.
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2)}'; }

# Peak memory (maximum resident set) of a command in KiB.
peak_kib() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1; }

# verdict NAME OURS_MS BASE_MS LIMIT: prints the ratio against its target, PASS or FAIL, and
# returns 1 on FAIL.
verdict() {
  local name=$1 ours=$2 base=$3 limit=$4
  local ratio
  ratio=$(awk -v a="$ours" -v b="$base" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
  if awk -v r="$ratio" -v l="$limit" 'BEGIN { exit !(r <= l) }'; then
    printf '%-58s %7s ms vs %7s ms  ratio %5s (target <= %s)  PASS\n' "$name" "$ours" "$base" "$ratio" "$limit"
  else
    printf '%-58s %7s ms vs %7s ms  ratio %5s (target <= %s)  FAIL\n' "$name" "$ours" "$base" "$ratio" "$limit"
    return 1
  fi
}

# memory_verdict NAME KIB: prints a peak memory against its target (under 64 MiB), PASS or
# FAIL, and returns 1 on FAIL.
memory_verdict() {
  local name=$1 kib=$2
  if [ "$kib" -lt 65536 ]; then
    printf '%-58s %7s KiB peak memory (target < 65536)  PASS\n' "$name" "$kib"
  else
    printf '%-58s %7s KiB peak memory (target < 65536)  FAIL\n' "$name" "$kib"
    return 1
  fi
}

# limit_verdict NAME MS LIMIT: prints a time against its limit (under LIMIT ms), PASS or FAIL,
# and returns 1 on FAIL.
limit_verdict() {
  local name=$1 ms=$2 limit=$3
  if awk -v m="$ms" -v l="$limit" 'BEGIN { exit !(m < l) }'; then
    printf '%-58s %7s ms (target < %s ms)  PASS\n' "$name" "$ms" "$limit"
  else
    printf '%-58s %7s ms (target < %s ms)  FAIL\n' "$name" "$ms" "$limit"
    return 1
  fi
}

# section_arguments SCRIPT "$@": the check every section script starts with: exactly two
# arguments (INSPECTOR DB) and a sqlite3 shell to compare with; exits 1 otherwise.
section_arguments() {
  local script=$1
  shift
  if [ $# -ne 2 ]; then
    echo "usage: $script INSPECTOR DB" >&2
    exit 1
  fi
  if ! command -v sqlite3 >/dev/null 2>&1; then
    echo "$script: no sqlite3 shell; skipping its comparisons" >&2
    exit 1
  fi
}
