#!/usr/bin/env bash
# shellcheck disable=SC2016 # the single-quoted programs expand their own arguments
# .ci/test-install.sh: scripts/install.sh and scripts/uninstall.sh end to end, into temporary
# prefixes. Checks that the installed inspector runs from another directory without the
# checkout (and without the Swift runtime's shared libraries), that man, bash, zsh and fish
# find what was installed where they look, that a second install changes nothing, and that
# uninstall removes exactly what install put there: nothing of ours is left, and files that were
# there before or were changed since stay. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
check() { # DESCRIPTION COMMAND...
  local description=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAILED: $description" >&2
  fi
}
equal() { [ "$1" = "$2" ] || { printf '  expected: %s\n  got:      %s\n' "$2" "$1" >&2; return 1; }; }
# A clean environment like a new login's: nothing of the build or of the checkout.
clean() { env -i HOME="$work/home" PATH="$prefix/bin:/usr/bin:/bin" LC_ALL=C "$@"; }
mkdir -p "$work/home" "$work/elsewhere"

# --- A PREFIX that does not exist yet: install twice, use it, uninstall. ---
prefix=$work/a/prefix
mkdir -p "$work/a"
check "install.sh into a new PREFIX" bash scripts/install.sh "$prefix" >"$work/install1.log"
manifest=$prefix/share/inspector/install-manifest
first=$(cat "$manifest" 2>/dev/null)
check "install.sh again (idempotent)" bash scripts/install.sh "$prefix" >"$work/install2.log"
check "a second install records the same manifest" equal "$(cat "$manifest")" "$first"
files=$(cd "$prefix" && find . -type f | LC_ALL=C sort | tr '\n' ' ')
check "the installed files" equal "$files" "./bin/inspector ./share/bash-completion/completions/inspector ./share/fish/vendor_completions.d/inspector.fish ./share/inspector/install-manifest ./share/man/man1/inspector.1 ./share/zsh/site-functions/_inspector "

version=$(cd "$work/elsewhere" && clean inspector --version)
check "inspector --version from another directory" \
  bash -c '[[ $1 =~ ^inspector\ [0-9]+\.[0-9]+\.[0-9]+\ \(SQLite\ [0-9.]+\)$ ]]' _ "$version"
check "the binary needs no Swift runtime library" \
  bash -c '! ldd "$1" | grep -q libswift' _ "$prefix/bin/inspector"
check "it works on a case file" \
  bash -c 'cd "$1" && env -i HOME="$1" PATH=/usr/bin:/bin "$2" --db "$1/case.sqlite" init --seed >/dev/null && rm -f "$1/case.sqlite"' \
  _ "$work/elsewhere" "$prefix/bin/inspector"

if command -v man >/dev/null 2>&1; then
  check "man finds the manual through PATH" \
    equal "$(clean man -w inspector 2>&1)" "$prefix/share/man/man1/inspector.1"
fi
completion=$prefix/share/bash-completion/completions/inspector
check "bash completes from the installed script" equal "$(clean bash -c '
  source "$1"; COMP_WORDS=(inspector animal add --paw ""); COMP_CWORD=4; _inspector
  echo "${COMPREPLY[*]}"' _ "$completion")" "small medium large"
if [ -f /usr/share/bash-completion/bash_completion ]; then
  check "bash-completion loads it from PREFIX/share" equal "$(clean env XDG_DATA_HOME="$prefix/share" bash -c '
    source /usr/share/bash-completion/bash_completion; _completion_loader inspector
    complete -p inspector')" "complete -F _inspector inspector"
fi
if command -v zsh >/dev/null 2>&1; then
  check "zsh autoloads _inspector from site-functions" equal "$(clean zsh -f -c '
    fpath=("$1" $fpath); autoload -U compinit; compinit -u -d "$HOME/zcompdump"
    print -r -- "$_comps[inspector]"' _ "$prefix/share/zsh/site-functions")" "_inspector"
fi
if command -v fish >/dev/null 2>&1; then
  check "fish finds it in vendor_completions.d" equal "$(clean env XDG_DATA_HOME="$prefix/share" \
    fish -c 'complete -C "inspector li"' | cut -f1)" "list"
fi

check "uninstall.sh" bash scripts/uninstall.sh "$prefix" >"$work/uninstall.log"
check "nothing is left, not even PREFIX" equal "$(ls -A "$work/a")" ""
rm -rf "${work:?}/home" && mkdir "$work/home"

# --- A PREFIX that holds other files: those stay, and so does a file changed since. ---
prefix=$work/b
mkdir -p "$prefix/share/man/man1" "$prefix/bin"
echo other >"$prefix/share/man/man1/other.1"
echo other >"$prefix/bin/other"
check "install.sh beside other files" bash scripts/install.sh "$prefix" >"$work/install3.log"
echo "# changed" >>"$prefix/share/fish/vendor_completions.d/inspector.fish"
bash scripts/uninstall.sh "$prefix" >"$work/uninstall2.log" 2>&1
check "uninstall.sh exits 1 when it keeps a changed file" equal "$?" 1
left=$(cd "$prefix" && find . | LC_ALL=C sort | tr '\n' ' ')
check "only the other files and the changed one are left" equal "$left" ". ./bin ./bin/other ./share ./share/fish ./share/fish/vendor_completions.d ./share/fish/vendor_completions.d/inspector.fish ./share/man ./share/man/man1 ./share/man/man1/other.1 "
bash scripts/uninstall.sh "$prefix" >/dev/null 2>&1
check "uninstall.sh without a manifest exits 66" equal "$?" 66

# --- A manifest that names a path outside PREFIX is refused, and nothing is removed. ---
prefix=$work/c
mkdir -p "$prefix/share/inspector"
echo precious >"$work/precious"
sum=$(sha256sum "$work/precious" | cut -d ' ' -f 1)
echo "file $sum ../precious" >"$prefix/share/inspector/install-manifest"
bash scripts/uninstall.sh "$prefix" >/dev/null 2>&1
check "a manifest reaching outside PREFIX is refused (65)" equal "$?" 65
check "and the file outside stays" test -f "$work/precious"

cd "$root" || exit 1
echo "install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
