#!/usr/bin/env bash
# scripts/backup.sh DB DIR [KEEP]
#
# Takes a timestamped online backup of the case database DB into DIR, checks it with
# `inspector check`, and keeps only the newest KEEP backups of DB in DIR (default 7). A backup
# that check faults is kept, nothing is rotated, and the script exits 65.
# Uses `inspector` from PATH, or the binary named by $INSPECTOR. Exits non-zero on any failure,
# leaving the older backups in place. (README "Operations")
set -euo pipefail

usage() { echo "usage: $(basename "$0") DB DIR [KEEP]" >&2; exit 64; }
fail() { echo "backup.sh: error: $1" >&2; exit "${2:-1}"; }

[ $# -ge 2 ] && [ $# -le 3 ] || usage
db=$1
dir=$2
keep=${3:-7}
inspector=${INSPECTOR:-inspector}
[[ $keep =~ ^[1-9][0-9]*$ ]] || fail "KEEP must be a whole number of 1 or more, not '$keep'" 64
command -v "$inspector" >/dev/null 2>&1 || fail "cannot run '$inspector' (set INSPECTOR)" 69
[ -f "$db" ] || fail "no database at $db" 66
mkdir -p "$dir" || fail "cannot create $dir" 73

base=$(basename "$db")
base=${base%.sqlite}
# One name per second, so that the names sort by age (rotation relies on it). The name is
# claimed with an exclusive create (noclobber: O_CREAT|O_EXCL), so two runs in the same second
# never share a file: the one that loses the race waits for the next second.
claim() { (umask 077 && set -o noclobber && : >"$1") 2>/dev/null; }
stamp=$(date -u +%Y%m%dT%H%M%SZ)
dest="$dir/$base-$stamp.sqlite"
until claim "$dest"; do
  [ -e "$dest" ] || fail "cannot create $dest" 73
  sleep 1
  stamp=$(date -u +%Y%m%dT%H%M%SZ)
  dest="$dir/$base-$stamp.sqlite"
done

"$inspector" --db "$db" backup "$dest" >/dev/null || {
  status=$?
  # 65 with the copy in place: a copy that will not restore as it is (the check below names
  # its faults); it is the newest copy there is, so it is kept.
  if [ "$status" -ne 65 ] || [ ! -s "$dest" ]; then
    rm -f "$dest"
    fail "the backup to $dest failed; removed it" "$status"
  fi
}
# `inspector backup` already refused a damaged copy. A fault check still finds (a duplicate
# written by another client, say) is the live database's too: the backup is kept, since it is
# the newest copy there is, but no older backup is rotated away, and the run fails loudly.
if ! "$inspector" --db "$dest" check >/dev/null; then
  fail "the new backup $dest has faults that 'inspector --db $dest check' lists (so does the"\
" database); kept it and removed no older backup" 65
fi
echo "backup: $dest"

# Rotation: the timestamp sorts by name; keep the newest $keep of this database's backups.
# Only this database's backups, BASE-YYYYMMDDTHHMMSSZ.sqlite (not those of BASE-other.sqlite).
d8='[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]'
d6='[0-9][0-9][0-9][0-9][0-9][0-9]'
mapfile -t backups < <(
  find "$dir" -maxdepth 1 -type f -name "$base-${d8}T${d6}Z.sqlite" | LC_ALL=C sort -r
)
for old in "${backups[@]:$keep}"; do
  rm -f -- "$old"
  echo "removed: $old"
done
