#!/usr/bin/env bash
# Measures what one `lockgraph watch` poll costs the server (docs/watch.md#cost-of-one-poll):
#
#   scripts/measure-poll-cost.sh LOCKGRAPH_BIN [RUNS]
#
# Starts a throwaway cluster (max_locks_per_transaction = 256), makes one session hold
# 10,000 session-level advisory locks, and times docs/snapshot.sql in four states:
#   baseline  the four scripts/watch-scenarios.sh situations alone (7 waiting backends)
#   idle      10,000 locks held, none contested (the query returns no rows)
#   scenarios + the four scripts/watch-scenarios.sh situations (7 waiting backends)
#   waiters   + 100 more backends each waiting for one of the 10,000 locks
# For each: the server-side execution time (EXPLAIN (ANALYZE, TIMING OFF): planning and
# execution), the same for a plain SELECT * FROM pg_locks for comparison, and the round
# trip in a warm session (what a running watch sees) and in a new connection (poll_ms of
# `watch --once --format json`, catalog caches cold). Medians of RUNS (default 21) runs;
# prints a Markdown table.
set -euo pipefail

BIN=${1:?usage: measure-poll-cost.sh LOCKGRAPH_BIN [RUNS]}
RUNS=${2:-21}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
CLUSTER="$HERE/pg-cluster.sh"
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac

WORK=$(mktemp -d /tmp/lockgraph-pollcost.XXXXXX)
chmod 755 "$WORK"
WAITER_PIDS=()
cleanup() {
  for p in "${WAITER_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  "$CLUSTER" stop "$WORK/pg" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

source "$HERE/scenarios.sh"
source "$HERE/watch-scenarios.sh"
for attempt in 1 2 3 4 5; do
  LG_PG_PORT=$(lg_free_port)
  PGCLUSTER_EXTRA_CONF="max_locks_per_transaction = 256" \
    "$CLUSTER" start "$WORK/pg" "$LG_PG_PORT" >/dev/null && break
  [ "$attempt" -lt 5 ] || { echo "measure-poll-cost: no cluster" >&2; exit 1; }
done
LG_WORKDIR="$WORK/scen"
lg_setup >/dev/null
lgw_setup
DSN="host=127.0.0.1 port=$LG_PG_PORT user=postgres dbname=$LG_PG_DB"
PSQL=("$(_lg_bindir)/psql" -X -q -At -h 127.0.0.1 -p "$LG_PG_PORT" -U postgres -d "$LG_PG_DB")
QUERY=$(cat "$ROOT/docs/snapshot.sql")

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# explain_ms SQL : median planning + execution time in ms, as the server measured them.
explain_ms() {
  local i
  for ((i = 0; i < RUNS; i++)); do
    printf 'EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON) %s\n' "$1" | "${PSQL[@]}" \
      | awk '/Planning Time:/ {p=$3} /Execution Time:/ {e=$3} END {printf "%.3f\n", p+e}'
  done | median
}

poll_ms() {
  local i
  for ((i = 0; i < RUNS; i++)); do
    "$BIN" watch --once --format json "$DSN" \
      | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["events"][0]["poll_ms"])'
  done | median
}

# warm_ms : median client round trip of the query in one session (psql \timing),
# as a running `watch` sees it: the first run (cold caches) is left out.
warm_ms() {
  local i
  { echo '\timing on'; for ((i = 0; i <= RUNS; i++)); do printf '%s;\n' "$QUERY"; done; } \
    | "${PSQL[@]}" -o /dev/null | awk '/^Time:/ {print $2}' | tail -n +2 | median
}

rows() { printf 'SELECT count(*) FROM (%s) s\n' "$QUERY" | "${PSQL[@]}"; }
locks() { "${PSQL[@]}" -c "SELECT count(*) FROM pg_locks"; }

measure() {  # measure LABEL
  echo "| $1 | $(locks) | $(rows) | $(explain_ms "$QUERY") | $(explain_ms "SELECT * FROM pg_catalog.pg_locks") | $(warm_ms) | $(poll_ms) |" >&3
}

echo "| state | pg_locks rows | rows returned | snapshot.sql, server ms | SELECT * FROM pg_locks, server ms | snapshot.sql round trip, warm session, ms | lockgraph --once poll_ms (new connection), ms |"
echo "|---|---|---|---|---|---|---|"
baseline() { measure "baseline: the 4 watch scenarios alone (7 waiting), no other locks"; }
exec 3>&1  # the table; scenario chatter goes to stderr
lgw_hold all baseline >&2

# The holder: takes 10,000 session advisory locks, then sleeps holding them.
"${PSQL[@]}" -c "SET application_name = 'lg_pollcost_holder'" \
  -c "SELECT count(pg_advisory_lock(g)) FROM generate_series(100001, 110000) g" \
  -c "SELECT pg_sleep(3600)" >/dev/null 2>&1 &
WAITER_PIDS+=($!)
for ((k = 0; k < 600; k++)); do
  [ "$("${PSQL[@]}" -c "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")" -ge 10000 ] && break
  sleep 0.1
done

measure "idle: 10,000 advisory locks held, none contested"

with_scenarios() {
  measure "scenarios: + 4 watch scenarios (7 waiting)"
  local k
  for ((k = 1; k <= 100; k++)); do
    "${PSQL[@]}" -c "SET application_name = 'lg_pollcost_waiter'; SELECT pg_advisory_lock($((100000 + k)))" \
      >/dev/null 2>&1 &
    WAITER_PIDS+=($!)
  done
  for ((k = 0; k < 600; k++)); do
    [ "$("${PSQL[@]}" -c "SELECT count(*) FROM pg_locks WHERE NOT granted AND locktype = 'advisory' AND objid BETWEEN 100001 AND 100100")" -ge 100 ] && break
    sleep 0.1
  done
  measure "waiters: + 100 backends waiting for the 10,000-lock holder"
  "${PSQL[@]}" -c "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                   WHERE application_name = 'lg_pollcost_waiter'" >/dev/null
}
lgw_hold all with_scenarios >&2
"${PSQL[@]}" -c "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                 WHERE application_name = 'lg_pollcost_holder'" >/dev/null
