#!/usr/bin/env bash
# scripts/browser-test.sh INSPECTOR [ARTIFACTS]
#
# The desk's browser test (docs/web-desk.md "Tested in a browser"): seeds a new case file with
# `inspector demo`, adds the investigator ann's token, serves it on a free loopback port and
# drives headless Chromium through Tests/Browser/desk_browser_test.py with Selenium, which
# writes its screenshots to ARTIFACTS (default .ci/artifacts). Needs Debian's chromium,
# chromium-driver and python3-selenium; Selenium is loaded by Debian's own python3
# (/usr/bin/python3), whatever python3 comes first on PATH.
#
# Exit status: 0 when every check passes, 1 otherwise, 77 when the browser or Selenium is
# missing.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: scripts/browser-test.sh INSPECTOR [ARTIFACTS]" >&2
  exit 1
fi
inspector=$(realpath "$1")
artifacts=${2:-.ci/artifacts}
python=/usr/bin/python3
if ! "$python" -c 'import selenium' 2>/dev/null || ! command -v chromium >/dev/null 2>&1 \
  || ! command -v chromedriver >/dev/null 2>&1; then
  echo "browser-test.sh: needs chromium, chromium-driver and python3-selenium" >&2
  exit 77
fi

work=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ]; then
    kill -TERM "$server" 2>/dev/null
    wait "$server" 2>/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT

db="$work/case.sqlite"
"$inspector" --db "$db" demo >/dev/null || exit 1
token=$("$inspector" --db "$db" serve token add ann | tail -1) || exit 1
port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$inspector" --db "$db" serve --listen "127.0.0.1:$port" 2>"$work/serve.log" &
server=$!
for _ in $(seq 1 100); do
  curl -s -o /dev/null "http://127.0.0.1:$port/" && break
  sleep 0.1
done

status=0
"$python" Tests/Browser/desk_browser_test.py --url "http://127.0.0.1:$port/" --token "$token" \
  --inspector "$inspector" --db "$db" --artifacts "$artifacts" || status=1

kill -TERM "$server"
wait "$server"
served=$?
server=""
if [ "$served" -ne 0 ]; then
  echo "browser-test.sh: inspector serve exited $served on SIGTERM" >&2
  cat "$work/serve.log" >&2
  status=1
fi
if [ "$status" -eq 0 ]; then
  "$inspector" --db "$db" check >/dev/null || { echo "browser-test.sh: check failed afterwards" >&2; status=1; }
fi
exit "$status"
