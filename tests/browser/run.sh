#!/usr/bin/env bash
# CTest browser_report: writes the HTML report of a real sample and of
# hostile text, then opens them in headless Debian Chromium through
# playwright-core (report.test.mjs).
#   tests/browser/run.sh LOCKGRAPH_BIN
# Without chromium or node_modules it skips (exit 77), except under CI=true,
# where it fails: CI must run the browser test (scripts/setup.sh installs it).
set -euo pipefail
BIN=${1:?usage: run.sh LOCKGRAPH_BIN}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
missing() {
  if [ "${CI:-}" = true ]; then
    echo "FAIL: $1 (CI=true: the browser test must run; scripts/setup.sh installs it)" >&2
    exit 1
  fi
  echo "SKIP: $1 (bash scripts/setup.sh installs it)"
  exit 77
}
[ -x "$CHROMIUM" ] || missing "no chromium at $CHROMIUM"
command -v node >/dev/null || missing "no node"
[ -d "$HERE/node_modules/playwright-core" ] || missing "no tests/browser/node_modules (npm ci)"

WORK=$(mktemp -d /tmp/lockgraph-browser.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
SAMPLE="$ROOT/samples/postgresql/scenarios.log"
"$BIN" report "$SAMPLE" -o "$WORK/sample.html"
"$BIN" report "$ROOT/tests/golden/hostile-text/input.log" -o "$WORK/hostile.html" 2>/dev/null
# The counts the page must show, from the JSON of the same input.
# Live locks: a pg_locks snapshot (3 blocking trees, 1 cycle) and an input that cannot be read.
"$BIN" report "$ROOT/samples/postgresql/snapshots/snapshot.csv" "$WORK/no-such.log" \
  -o "$WORK/snapshot.html" 2>/dev/null || [ $? -eq 2 ]
read -r DEADLOCKS NGROUPS WAITS < <("$BIN" analyze --format json "$SAMPLE" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["summary"]["deadlocks"], len(d["groups"]), d["summary"]["lock_waits"])')
# A real value, not only agreement between two outputs: the sample holds 45.
[ "$DEADLOCKS" = 45 ] || { echo "FAIL: samples/postgresql/scenarios.log has $DEADLOCKS deadlocks, expected 45" >&2; exit 1; }
cd "$HERE"
SAMPLE_HTML="$WORK/sample.html" HOSTILE_HTML="$WORK/hostile.html" SNAPSHOT_HTML="$WORK/snapshot.html" SAMPLE_DEADLOCKS="$DEADLOCKS" \
  SAMPLE_GROUPS="$NGROUPS" SAMPLE_WAITS="$WAITS" CHROMIUM="$CHROMIUM" \
  node --test --test-reporter=spec report.test.mjs
