#!/usr/bin/env bash
# scripts/docs.sh [OUTPUT]
#
# Builds the DocC reference of the library targets, SQLiteKit, CaseStore and CommandLineKit, with the
# toolchain's own `docc` (no package plugin): `swift build` emits their symbol graphs, then
# `docc convert` turns each into a documentation archive under OUTPUT (default .build/docs).
# Fails when docc prints a warning, so broken links and undocumented parameters are caught.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/docs}
graphs=.build/symbol-graphs
# The graphs of earlier runs stay: a module the build does not recompile (nothing changed since)
# emits none, and its last graph is still its own. The per-module copies are made anew.
rm -rf "$graphs/SQLiteKit" "$graphs/CaseStore" "$graphs/CommandLineKit"
mkdir -p "$graphs" "$out"
for target in CaseStore CommandLineKit; do
  swift build --target "$target" -Xswiftc -emit-symbol-graph \
    -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" >/dev/null
done
status=0
for module in SQLiteKit CaseStore CommandLineKit; do
  mkdir -p "$graphs/$module"
  cp "$graphs/$module".symbols.json "$graphs/$module"@*.symbols.json "$graphs/$module/" \
    2>/dev/null || cp "$graphs/$module".symbols.json "$graphs/$module/"
  log=$(mktemp)
  docc convert --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.fruit-inspectors.$module" \
    --additional-symbol-graph-dir "$graphs/$module" \
    --output-path "$out/$module.doccarchive" >"$log" 2>&1 || status=1
  if grep -q "warning:" "$log"; then
    grep -A2 "warning:" "$log" >&2
    status=1
  fi
  rm -f "$log"
  echo "docs: $out/$module.doccarchive"
done
exit "$status"
