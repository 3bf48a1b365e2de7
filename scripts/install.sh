#!/usr/bin/env bash
# scripts/install.sh [PREFIX]
#
# Builds a release `inspector` linked with the static Swift standard library (it starts about
# twice as fast: README "Performance") and installs, under PREFIX (default ~/.local):
#
#   bin/inspector                                  the program
#   share/man/man1/inspector.1                     the manual (`inspector manual`)
#   share/bash-completion/completions/inspector    bash completion (`inspector completions bash`)
#   share/zsh/site-functions/_inspector            zsh completion
#   share/fish/vendor_completions.d/inspector.fish fish completion
#
# Each file is replaced atomically, so running it again (after a `git pull`, say) brings the
# installation up to date. What it installed (each file with its SHA-256, and the directories
# it had to create) is recorded in share/inspector/install-manifest, which
# scripts/uninstall.sh reads to remove exactly that. Exits 64 for a usage error, 73 when a
# file cannot be created, and with the build's status when the build fails. (README "Set-up")
set -euo pipefail

usage() { echo "usage: $(basename "$0") [PREFIX]" >&2; exit 64; }
fail() { echo "install.sh: error: $1" >&2; exit "${2:-1}"; }

# An absolute PREFIX without trailing slashes, before leaving the caller's directory.
. "$(dirname "$0")/install-prefix.sh"
read_prefix "$@"
cd "$(dirname "$0")/.."

checksum() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  else
    shasum -a 256 "$1" | cut -d ' ' -f 1
  fi
}

echo "install.sh: building a release inspector (swift build -c release --static-swift-stdlib)"
swift build -c release --static-swift-stdlib --product inspector
binary=$(swift build -c release --static-swift-stdlib --show-bin-path)/inspector
[ -x "$binary" ] || fail "the build made no $binary"

# The directories this run creates at or below PREFIX, as paths relative to it ("." for PREFIX
# itself), recorded so that uninstall.sh removes them when they are empty again. Missing
# parents of PREFIX are created too, but not recorded.
created=()
make_directory() {
  local dir=$1 missing=() each
  while [ ! -d "$dir" ]; do
    missing=("$dir" ${missing[@]+"${missing[@]}"})
    dir=$(dirname "$dir")
  done
  for each in ${missing[@]+"${missing[@]}"}; do
    mkdir "$each" 2>/dev/null || [ -d "$each" ] || fail "cannot create $each" 73
    case $each in
      "$prefix") created+=(.) ;;
      "$prefix"/*) created+=("${each#"$prefix"/}") ;;
    esac
  done
}
make_directory "$prefix"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
# The generated files come from the binary just built, so they describe exactly its commands.
"$binary" manual >"$stage/inspector.1"
"$binary" completions bash >"$stage/inspector.bash"
"$binary" completions zsh >"$stage/_inspector"
"$binary" completions fish >"$stage/inspector.fish"

# SOURCE MODE RELATIVE-DESTINATION: installs one file atomically (a copy beside it, then
# rename), so a running inspector or a shell reading a completion never sees half a file.
installed=()
put() {
  local source=$1 mode=$2 relative=$3
  local destination=$prefix/$relative
  local dir temporary
  dir=$(dirname "$destination")
  make_directory "$dir"
  temporary="$dir/.${relative##*/}.install-$$"
  cp "$source" "$temporary" 2>/dev/null || fail "cannot create $temporary" 73
  chmod "$mode" "$temporary"
  mv -f "$temporary" "$destination" || { rm -f "$temporary"; fail "cannot create $destination" 73; }
  installed+=("file $(checksum "$destination") $relative")
  echo "installed $destination"
}
put "$binary" 755 bin/inspector
put "$stage/inspector.1" 644 share/man/man1/inspector.1
put "$stage/inspector.bash" 644 share/bash-completion/completions/inspector
put "$stage/_inspector" 644 share/zsh/site-functions/_inspector
put "$stage/inspector.fish" 644 share/fish/vendor_completions.d/inspector.fish

manifest_dir=$prefix/share/inspector
manifest=$manifest_dir/install-manifest
make_directory "$manifest_dir"

# An earlier run's record is merged in: the directories it created, and any file it installed
# that this run no longer does (still on disk, so still ours to remove).
directories=()
if [ -f "$manifest" ]; then
  while read -r kind rest; do
    case $kind in
      dir) directories+=("$rest") ;;
      file)
        case " ${installed[*]##* } " in
          *" ${rest#* } "*) ;;
          *) installed+=("file $rest") ;;
        esac
        ;;
    esac
  done <"$manifest"
fi
directories+=(${created[@]+"${created[@]}"})

temporary_manifest="$manifest_dir/.install-manifest.install-$$"
{
  echo "# Installed by scripts/install.sh into $prefix; scripts/uninstall.sh removes exactly this."
  printf '%s\n' "${installed[@]}"
  if [ ${#directories[@]} -gt 0 ]; then
    printf '%s\n' "${directories[@]}" | awk '!seen[$0]++ { print "dir " $0 }'
  fi
} >"$temporary_manifest" || fail "cannot create $manifest" 73
mv -f "$temporary_manifest" "$manifest"
echo "recorded $manifest"

case ":${PATH:-}:" in
  *":$prefix/bin:"*) ;;
  *) echo "note: $prefix/bin is not on PATH; add it (export PATH=\"$prefix/bin:\$PATH\")" ;;
esac
echo "note: bash loads the completion through the bash-completion package (or add"
echo "      'source $prefix/share/bash-completion/completions/inspector' to ~/.bashrc);"
echo "      zsh needs 'fpath=($prefix/share/zsh/site-functions \$fpath)' before compinit"
echo "      unless that directory is already on its fpath; fish finds it by itself."
