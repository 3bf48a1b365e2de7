# scripts/install-prefix.sh: sourced by scripts/install.sh and scripts/uninstall.sh, which take
# the same one optional argument. read_prefix "$@" sets `prefix` to PREFIX (default
# $HOME/.local), made absolute against the caller's directory and without trailing slashes;
# on a bad argument it calls the sourcing script's `usage` or `fail` (exit 64).

read_prefix() {
  [ $# -le 1 ] || usage
  case ${1:-} in -h | --help) usage ;; esac
  if [ $# -eq 1 ]; then
    [ -n "$1" ] || fail "PREFIX is empty" 64
    prefix=$1
  else
    [ -n "${HOME:-}" ] || fail "HOME is not set: give PREFIX" 64
    prefix=$HOME/.local
  fi
  case $prefix in /*) ;; *) prefix=$PWD/$prefix ;; esac
  while [ "${prefix%/}" != "$prefix" ] && [ "$prefix" != / ]; do prefix=${prefix%/}; done
}
