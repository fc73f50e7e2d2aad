#!/usr/bin/env bash
# Makes docs/report.png, the README's picture of the HTML report: the report
# of samples/postgresql/scenarios.log (a real PostgreSQL 15 log) opened in
# headless Chromium with its largest deadlock group expanded.
#   scripts/make-report-screenshot.sh [LOCKGRAPH_BIN]   (default build/lockgraph)
# Needs what scripts/setup.sh installs (chromium, tests/browser/node_modules).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$ROOT/build/lockgraph}
OUT=$(mktemp -d /tmp/lockgraph-shot.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
cd "$ROOT"
"$BIN" report samples/postgresql/scenarios.log -o "$OUT/report.html"
(cd tests/browser && node screenshot.mjs "$OUT/report.html" "$ROOT/docs/report.png")
echo "wrote docs/report.png"
