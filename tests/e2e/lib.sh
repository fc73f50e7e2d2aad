# The preamble every tests/e2e/*.sh shares, sourced after `set -uo pipefail`:
#
#   HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
#   source "$HERE/lib.sh"
#   e2e_begin e2e_watch "${1:-}"            # NAME and the lockgraph binary
#   e2e_start_cluster "log_statement = 'all'" || e2e_fail_all "could not start a PostgreSQL cluster"
#
# e2e_begin sets BIN (absolute), ROOT, CLUSTER, T0, WORK (a fresh directory
# the postgres user can enter), PGDIR and BG_PIDS, and traps EXIT to kill
# BG_PIDS, stop the cluster and remove WORK (kept with KEEP_E2E_WORK=1).
# check/finish count and print "PASS  name - detail" lines and the final
# "N passed, M failed"; finish exits 1 when a check failed.
# e2e_start_cluster starts scripts/pg-cluster.sh on a free loopback port
# (five tries), with PGCLUSTER_EXTRA_CONF=$1, and sets PORT.

# shellcheck shell=bash
E2E_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$E2E_LIB_DIR/../.." && pwd)
CLUSTER="$ROOT/scripts/pg-cluster.sh"
# shellcheck source=../../scripts/scenarios.sh
source "$ROOT/scripts/scenarios.sh"

e2e_begin() {  # e2e_begin NAME BIN
  E2E_NAME=$1
  BIN=$2
  if [ -n "$BIN" ] && [ "${BIN#/}" = "$BIN" ]; then BIN="$PWD/$BIN"; fi
  T0=$SECONDS
  WORK=$(mktemp -d "/tmp/lockgraph-$E2E_NAME.XXXXXX") || exit 2
  chmod 755 "$WORK"  # the postgres user must reach $WORK/pg
  PGDIR="$WORK/pg"
  BG_PIDS=()
  PASSED=0
  FAILED=0
  trap _e2e_cleanup EXIT
  trap 'exit 130' INT TERM
  [ -n "$BIN" ] && [ -x "$BIN" ] || e2e_fail_all "lockgraph binary not found: '$BIN'"
  command -v python3 >/dev/null || e2e_fail_all "python3 is required"
}

_e2e_cleanup() {
  local p
  for p in "${BG_PIDS[@]}"; do kill "$p" 2>/dev/null; done
  "$CLUSTER" stop "$PGDIR" >/dev/null 2>&1
  if [ -n "${KEEP_E2E_WORK:-}" ]; then echo "$E2E_NAME: work dir kept: $WORK"; else rm -rf "$WORK"; fi
}

check() {  # check pass|fail NAME [DETAIL]
  if [ "$1" = pass ]; then PASSED=$((PASSED + 1)); echo "PASS  $2${3:+ - $3}"
  else FAILED=$((FAILED + 1)); echo "FAIL  $2${3:+ - $3}"; fi
}

finish() {
  echo "$E2E_NAME: took $((SECONDS - T0)) s"
  echo "$PASSED passed, $FAILED failed"
  [ "$FAILED" -eq 0 ]
  exit $?
}

e2e_fail_all() {  # e2e_fail_all REASON: one failed check, then finish
  check fail "$E2E_NAME" "$1"
  finish
}

e2e_start_cluster() {  # e2e_start_cluster [EXTRA_CONF]: sets PORT; 1 when it never started
  local attempt
  for attempt in 1 2 3 4 5; do
    PORT=${LOCKGRAPH_E2E_PORT:-$(lg_free_port)}
    [ -n "$PORT" ] || continue
    if PGCLUSTER_EXTRA_CONF="${1:-}" "$CLUSTER" start "$PGDIR" "$PORT" >"$WORK/cluster-start.out" 2>&1; then
      echo "$E2E_NAME: cluster on 127.0.0.1:$PORT in $PGDIR"
      return 0
    fi
    echo "$E2E_NAME: start on port $PORT failed (attempt $attempt)"
    "$CLUSTER" stop "$PGDIR" >/dev/null 2>&1
  done
  cat "$WORK/cluster-start.out"
  return 1
}
