#!/usr/bin/env bash
# scripts/backup.sh DB DIR [KEEP]
#
# Takes a timestamped online backup of the case database DB into DIR, checks it with
# `inspector check`, and keeps the newest KEEP (default 7) of the backups this script made of
# DB in DIR. Rotation removes only files listed in DIR/.BASE.backup-manifest (what this script
# made, with each file's SHA-256 and which database it copies) whose bytes still match, never
# the backup just made, never any other file. A backup that check faults is kept apart in
# DIR/faulted/ (rotated among themselves, KEEP at most) and the script exits 65.
# Uses `inspector` from PATH, or the binary named by $INSPECTOR. Exits non-zero on any failure,
# leaving the older backups in place. (docs/operations.md "Scripts")
set -euo pipefail

usage() { echo "usage: $(basename "$0") DB DIR [KEEP]" >&2; exit 64; }
fail() { echo "backup.sh: error: $1" >&2; exit "${2:-1}"; }
warn() { echo "backup.sh: warning: $1" >&2; }

[ $# -ge 2 ] && [ $# -le 3 ] || usage
db=$1
dir=$2
keep=${3:-7}
inspector=${INSPECTOR:-inspector}
[[ $keep =~ ^[1-9][0-9]*$ ]] || fail "KEEP must be a whole number of 1 or more, not '$keep'" 64
command -v "$inspector" >/dev/null 2>&1 || fail "cannot run '$inspector' (set INSPECTOR)" 69
[ -f "$db" ] || fail "no database at $db" 66
mkdir -p "$dir" || fail "cannot create $dir" 73
umask 077

# SHA-256 of the file $1, or of stdin without an argument (hex).
sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum ${1+"$1"} | cut -d ' ' -f 1
  else
    shasum -a 256 ${1+"$1"} | cut -d ' ' -f 1
  fi
}

base=$(basename "$db")
base=${base%.sqlite}
# Which database the backups copy: its directory (symbolic links resolved) and file name.
db_dir=$(cd "$(dirname "$db")" && pwd -P) || fail "cannot read the directory of $db" 66
source_id=$(printf '%s/%s' "$db_dir" "$(basename "$db")" | sha256)
manifest="$dir/.$base.backup-manifest"

# Names are claimed with an exclusive create (noclobber: O_CREAT|O_EXCL), so two runs never
# share a file.
claim() { (umask 077 && set -o noclobber && : >"$1") 2>/dev/null; }
# One name per second: the one that loses a race waits for the next second.
stamp=$(date -u +%Y%m%dT%H%M%SZ)
dest="$dir/$base-$stamp.sqlite"
until claim "$dest"; do
  [ -e "$dest" ] || fail "cannot create $dest" 73
  sleep 1
  stamp=$(date -u +%Y%m%dT%H%M%SZ)
  dest="$dir/$base-$stamp.sqlite"
done

# What inspector says is held back until the copy has its final name: its messages name the
# copy, which a faulted run then moves into faulted/.
made=$dest
# Writes inspector's messages $1 to stderr, naming the copy where it now is.
relay() { [ -z "$1" ] || printf '%s\n' "${1//"$made"/"$dest"}" >&2; }
backup_messages=$("$inspector" --db "$db" backup "$dest" 2>&1 >/dev/null) || {
  status=$?
  # 65 with the copy in place: a copy that will not restore as it is (the check below names
  # its faults); it is the newest copy there is, so it is kept.
  if [ "$status" -ne 65 ] || [ ! -s "$dest" ]; then
    rm -f "$dest"
    relay "$backup_messages"
    fail "the backup to $dest failed; removed it" "$status"
  fi
}

# `inspector backup` already refused a damaged copy. A fault check still finds (a duplicate
# written by another client, say) is the live database's too: the backup is kept, since it is
# the newest copy there is, but apart from the good ones in faulted/, so that it never rotates
# a good backup away; the faulted ones rotate among themselves, and the run fails loudly.
state=good
folder=
if ! check_messages=$("$inspector" --db "$dest" check 2>&1 >/dev/null); then
  state=faulted
  folder=faulted/
  mkdir -p "$dir/faulted" || fail "cannot create $dir/faulted; kept $dest" 73
  kept_stamp=$stamp
  n=1
  until claim "$dir/faulted/$base-$kept_stamp.sqlite"; do
    [ -e "$dir/faulted/$base-$kept_stamp.sqlite" ] || fail "cannot create in $dir/faulted" 73
    n=$((n + 1))
    kept_stamp=$stamp-$n
  done
  mv -f -- "$dest" "$dir/faulted/$base-$kept_stamp.sqlite"
  stamp=$kept_stamp
  dest="$dir/faulted/$base-$stamp.sqlite"
fi
relay "$backup_messages"
relay "${check_messages-}"
echo "backup: $dest"

# The manifest: one line per backup this script made, `STATE STAMP SHA256 SOURCE` (the file is
# DIR/[faulted/]BASE-STAMP.sqlite; SOURCE the SHA-256 of the database's path). Changed under
# a lock (where flock(1) exists), so that concurrent runs do not lose each other's lines.
if command -v flock >/dev/null 2>&1; then
  exec 9>>"$manifest.lock" || fail "cannot create $manifest.lock" 73
  flock -x 9
fi
printf '%s %s %s %s\n' "$state" "$stamp" "$(sha256 "$dest")" "$source_id" >>"$manifest" ||
  fail "cannot write $manifest; kept $dest" 73

# Rotation of this database's backups in the new one's state: the manifest's order is the
# order they were made (whatever their names say). Entries whose file is gone or is no longer
# a regular file are forgotten. While more than KEEP remain, the oldest is removed if its bytes
# still match the manifest, and otherwise left alone and forgotten. The new backup is the last
# line, so it is always among the KEEP kept.
lines=()
mapfile -t lines <"$manifest"
declare -A forget=()
ours=()
for i in "${!lines[@]}"; do
  read -r line_state line_stamp _ line_source _ <<<"${lines[$i]}" || true
  [ "${line_state:-}" = "$state" ] && [ "${line_source:-}" = "$source_id" ] || continue
  [[ ${line_stamp:-} =~ ^[0-9]{8}T[0-9]{6}Z(-[0-9]+)?$ ]] || continue
  path="$dir/$folder$base-$line_stamp.sqlite"
  if [ -L "$path" ] || [ ! -f "$path" ]; then
    forget[$i]=1
  else
    ours+=("$i")
  fi
done
excess=$((${#ours[@]} - keep))
for ((n = 0; n < excess; n++)); do
  i=${ours[$n]}
  read -r _ line_stamp line_sum _ <<<"${lines[$i]}"
  path="$dir/$folder$base-$line_stamp.sqlite"
  forget[$i]=1
  if [ "$(sha256 "$path")" = "$line_sum" ]; then
    rm -f -- "$path"
    echo "removed: $path"
  else
    warn "left $path: it changed since this script made it, so it is no longer rotated"
  fi
done
if [ ${#forget[@]} -gt 0 ]; then
  for i in "${!lines[@]}"; do
    [ -n "${forget[$i]:-}" ] || printf '%s\n' "${lines[$i]}"
  done >"$manifest.new" && mv -f -- "$manifest.new" "$manifest" ||
    fail "cannot rewrite $manifest" 73
fi

if [ "$state" = faulted ]; then
  fail "the new backup $dest has faults that 'inspector --db $dest check' lists (so does the"\
" database); kept it apart in $dir/faulted (the newest $keep there), and removed no good backup" 65
fi
