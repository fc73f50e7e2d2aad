#!/usr/bin/env bash
# The example alerts and the dashboard (CTest metrics_rules; docs/metrics.md):
# `promtool check rules` and `promtool test rules` on docs/prometheus/,
# `promtool check metrics` on every golden `analyze --format prometheus`
# output, and tests/metrics/check_names.py: every metric the dashboard and the
# alerts name is one of docs/metrics.md's table. Needs promtool (Debian
# `prometheus`). Prints one line per check and "N passed, M failed".
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PASSED=0 FAILED=0
check() {  # check NAME COMMAND...: pass when COMMAND exits 0; its output on failure
  local name=$1 out
  shift
  if out=$("$@" 2>&1); then PASSED=$((PASSED + 1)); echo "PASS  $name"
  else FAILED=$((FAILED + 1)); echo "FAIL  $name"; echo "$out" | sed 's/^/      /'; fi
}
command -v promtool >/dev/null || { echo "FAIL  promtool not found (apt-get install prometheus)"; exit 1; }

check "promtool check rules docs/prometheus/alerts.yml" promtool check rules "$ROOT/docs/prometheus/alerts.yml"
check "promtool test rules docs/prometheus/alerts_test.yml" \
  bash -c "cd '$ROOT/docs/prometheus' && promtool test rules alerts_test.yml"
n=0
for f in "$ROOT"/tests/golden/*/expected.prometheus; do
  n=$((n + 1))
  # promtool check metrics reads stdin; it prints lint problems and exits 1 on any.
  check "promtool check metrics ${f#"$ROOT"/}" bash -c "promtool check metrics < '$f'"
done
[ "$n" -gt 0 ] || { FAILED=$((FAILED + 1)); echo "FAIL  no tests/golden/*/expected.prometheus"; }
check "dashboard and alerts name only documented metrics" \
  python3 "$HERE/check_names.py" "$ROOT/docs/metrics.md" "$ROOT"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
