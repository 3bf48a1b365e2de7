#!/usr/bin/env bash
# scripts/history-triggers.sh [--new]
#
# Writes the history's triggers, generated from CaseStore's one description of the recorded
# tables (RecordedTable.all in Sources/CaseStore/History/RecordedTable.swift), as a migration
# (docs/history.md "Recorded tables"):
#   (no option)  rewrites the newest migrations/NNNN_history_triggers.sql: a no-op when the
#                description has not changed; use it only while that migration is unreleased
#                (a released migration must never change: inspector refuses files whose applied
#                migrations drifted);
#   --new        writes a new migration numbered after the newest one, for a changed
#                description (after the migration that adds a recorded column, if any).
# Then commit the file. HistoryTriggerGenerationTests fails while the newest file differs from
# what the description generates.
#
# The generator is the executable target history-triggers, which links CaseStore. The build
# does not run it and it reads nothing in migrations/, so the file it writes is only an input of
# the EmbedMigrations plugin, never an output of the build: no build cycle.
set -euo pipefail
cd "$(dirname "$0")/.."
newest=$(ls migrations/[0-9][0-9][0-9][0-9]_*.sql | tail -n 1)
case "${1:-}" in
  "")
    target=$(ls migrations/[0-9][0-9][0-9][0-9]_history_triggers.sql 2>/dev/null | tail -n 1 || true)
    if [ -z "$target" ]; then
      echo "history-triggers.sh: no migrations/NNNN_history_triggers.sql yet; use --new" >&2
      exit 64
    fi
    ;;
  --new)
    number=$(basename "$newest" | cut -c1-4)
    target=$(printf 'migrations/%04d_history_triggers.sql' $((10#$number + 1)))
    ;;
  *)
    echo "usage: scripts/history-triggers.sh [--new]" >&2
    exit 64
    ;;
esac
swift build --product history-triggers >/dev/null
"$(swift build --show-bin-path)/history-triggers" "$target"
echo "history-triggers: wrote $target"
