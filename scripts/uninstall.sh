#!/usr/bin/env bash
# scripts/uninstall.sh [PREFIX]
#
# Removes what scripts/install.sh installed under PREFIX (default ~/.local), as its manifest
# PREFIX/share/inspector/install-manifest records it: each file whose SHA-256 is still the one
# installed (a file changed since is kept, with a warning), then the directories install.sh
# created, deepest first, when they are empty; then the manifest. Nothing else is touched: the
# case database and other programs' files stay. Exits 64 for a usage error, 66 when PREFIX has
# no manifest, and 65 when the manifest names a path outside PREFIX. (README "Set-up")
set -euo pipefail

usage() { echo "usage: $(basename "$0") [PREFIX]" >&2; exit 64; }
fail() { echo "uninstall.sh: error: $1" >&2; exit "${2:-1}"; }

. "$(dirname "$0")/install-prefix.sh"
read_prefix "$@"

manifest_dir=$prefix/share/inspector
manifest=$manifest_dir/install-manifest
[ -f "$manifest" ] || fail "nothing to uninstall: no $manifest" 66

checksum() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  else
    shasum -a 256 "$1" | cut -d ' ' -f 1
  fi
}

# Only plain relative paths below PREFIX: a manifest edited by hand cannot reach elsewhere.
check_path() {
  case "/$1/" in
    */../* | */./* | //*) [ "$1" = . ] || fail "the manifest names '$1', outside $prefix" 65 ;;
  esac
}

files=()
directories=()
while read -r kind rest; do
  case $kind in
    file) check_path "${rest#* }"; files+=("$rest") ;;
    dir) check_path "$rest"; directories+=("$rest") ;;
  esac
done <"$manifest"

status=0
for entry in ${files[@]+"${files[@]}"}; do
  sum=${entry%% *}
  path=$prefix/${entry#* }
  if [ ! -e "$path" ] && [ ! -L "$path" ]; then
    continue
  elif [ -f "$path" ] && [ ! -L "$path" ] && [ "$(checksum "$path")" = "$sum" ]; then
    rm -f "$path"
    echo "removed $path"
  else
    echo "uninstall.sh: warning: $path changed since it was installed; kept" >&2
    status=1
  fi
done

rm -f "$manifest"
echo "removed $manifest"
# The manifest's own directory, then those install.sh created, deepest first (PREFIX itself
# last); rmdir leaves any that now hold something else.
deepest_first() {
  awk -F/ '{ print ($0 == "." ? 0 : NF) "\t" $0 }' | sort -rn -k1,1 | cut -f2-
}
while IFS= read -r dir; do
  path=$prefix/$dir
  [ "$dir" = . ] && path=$prefix
  if [ -d "$path" ] && rmdir "$path" 2>/dev/null; then echo "removed $path/"; fi
done < <(printf '%s\n' share/inspector ${directories[@]+"${directories[@]}"} | deepest_first)
exit $status
