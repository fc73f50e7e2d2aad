#!/usr/bin/env bash
# Regenerates samples/postgresql/ from a real PostgreSQL server:
#   scenarios.log / .csv / .json   all scenarios of scripts/scenarios.sh, one cluster,
#                                  log_line_prefix '%m [%p] %q%u@%d/%a '
#   prefix-pgbadger.log            two_way + lock_wait, stderr only, pgbadger-style prefix
#                                  '%t [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h '
#   README.md                      how they were made, with counts and scenario pids
# Needs: PostgreSQL 15 server + client (psql, pgbench), python3. Run as root or as a
# user that may run PostgreSQL; writes only into samples/postgresql/.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
CLUSTER="$HERE/pg-cluster.sh"
OUT="$ROOT/samples/postgresql"
T0=$SECONDS

WORK=$(mktemp -d /tmp/lockgraph-samples.XXXXXX)
chmod 755 "$WORK"
cleanup() {
  "$CLUSTER" stop "$WORK/main" >/dev/null 2>&1 || true
  "$CLUSTER" stop "$WORK/pgbadger" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# shellcheck source=scenarios.sh
source "$HERE/scenarios.sh"

start_cluster() {  # start_cluster DIR  -> sets LG_PG_PORT
  local dir=$1 attempt
  for attempt in 1 2 3 4 5; do
    LG_PG_PORT=$(lg_free_port)
    if "$CLUSTER" start "$dir" "$LG_PG_PORT"; then return 0; fi
  done
  echo "make-samples: could not start a cluster" >&2
  return 1
}

# ---- 1. all scenarios, default lockgraph prefix, three destinations -------------------
start_cluster "$WORK/main"
LG_LOGDIR="$WORK/main/log"
LG_WORKDIR="$WORK/scen-main"
lg_setup
SERVER_VERSION=$("$(_lg_bindir)/postgres" --version)
scenario_two_way
scenario_three_way
scenario_lock_wait
scenario_lock_timeout
scenario_chain
scenario_checkout
declare -A MAIN_PIDS=()
for k in "${!LG_PIDS[@]}"; do MAIN_PIDS[$k]=${LG_PIDS[$k]}; done
"$CLUSTER" stop "$WORK/main"

# ---- 2. pgbadger-style prefix, stderr only, two scenarios ------------------------------
LG_PIDS=()
PGCLUSTER_EXTRA_CONF="log_destination = 'stderr'
log_line_prefix = '%t [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h '" \
  start_cluster "$WORK/pgbadger"
LG_LOGDIR="$WORK/pgbadger/log"
LG_WORKDIR="$WORK/scen-pgbadger"
lg_setup
scenario_two_way
scenario_lock_wait
declare -A PGB_PIDS=()
for k in "${!LG_PIDS[@]}"; do PGB_PIDS[$k]=${LG_PIDS[$k]}; done
"$CLUSTER" stop "$WORK/pgbadger"

# ---- copy -------------------------------------------------------------------------------
mkdir -p "$OUT"
for ext in log csv json; do
  cp "$WORK/main/log/postgresql.$ext" "$OUT/scenarios.$ext"
done
cp "$WORK/pgbadger/log/postgresql.log" "$OUT/prefix-pgbadger.log"
chmod 644 "$OUT"/scenarios.* "$OUT/prefix-pgbadger.log"

# ---- counts -----------------------------------------------------------------------------
STATS=$(python3 - "$OUT/scenarios.csv" <<'PY'
import csv, re, sys
from collections import Counter
csv.field_size_limit(1 << 30)
EDGE = re.compile(r"^Process (\d+) waits for (\S+) on (.+); blocked by process (\d+)\.$", re.M)
sizes, by_app = Counter(), Counter()
n = tuple_edges = tuple_cycles = big_tuple = 0
msgs = Counter()
for r in csv.reader(open(sys.argv[1], newline="")):
    m = r[13]
    for key, pat in (("still_waiting", " still waiting for "), ("acquired", " acquired "),
                     ("detected_while_waiting", " detected deadlock while waiting for "),
                     ("avoided", " avoided deadlock for "), ("failed_acquire", " failed to acquire ")):
        if m.startswith("process ") and pat in m:
            msgs[key] += 1
    if m == "canceling statement due to lock timeout":
        msgs["lock_timeout"] += 1
    if m != "deadlock detected":
        continue
    n += 1
    edges = EDGE.findall(r[14])
    sizes[len(edges)] += 1
    app = re.sub(r"_[A-Z]$", "", r[22])
    by_app[app] += 1
    t = sum(1 for e in edges if e[2].startswith("tuple ("))
    tuple_edges += t
    tuple_cycles += t > 0
    big_tuple += t > 0 and len(edges) >= 3
print(f"DEADLOCKS={n}")
print("SIZES='" + ", ".join(f"{k}: {v}" for k, v in sorted(sizes.items())) + "'")
print("BY_APP='" + ", ".join(f"{k}: {v}" for k, v in sorted(by_app.items())) + "'")
print(f"TUPLE_EDGES={tuple_edges} TUPLE_CYCLES={tuple_cycles} BIG_TUPLE={big_tuple}")
for k in ("still_waiting", "acquired", "detected_while_waiting", "avoided", "failed_acquire", "lock_timeout"):
    print(f"MSG_{k.upper()}={msgs[k]}")
PY
)
eval "$STATS"
count() { grep -c -- "$1" "$2" || true; }
LOG_DEADLOCKS=$(count 'ERROR:  deadlock detected' "$OUT/scenarios.log")
LOG_STILL=$(count ' still waiting for ' "$OUT/scenarios.log")
PGB_DEADLOCKS=$(count 'ERROR:  deadlock detected' "$OUT/prefix-pgbadger.log")
PGB_STILL=$(count ' still waiting for ' "$OUT/prefix-pgbadger.log")
pids() {  # pids ARRAYNAME SCENARIO
  local -n arr=$1
  local k out=""
  for k in A B C victim; do
    [ -n "${arr[$2.$k]:-}" ] && out+="${out:+, }$k=${arr[$2.$k]}"
  done
  echo "$out"
}
size_of() { du -h "$1" | cut -f1; }

cat >"$OUT/README.md" <<EOF
# PostgreSQL sample logs (real server output)

Generated by \`scripts/make-samples.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC') from
\`$SERVER_VERSION\` (Debian package), in a throwaway cluster started by
\`scripts/pg-cluster.sh\`; the scenarios are the functions of \`scripts/scenarios.sh\`.
Do not edit these files by hand: rerun the script (pids, xids, OIDs and times change).

## Settings

\`\`\`
logging_collector = on
log_destination   = 'stderr,csvlog,jsonlog'
log_line_prefix   = '%m [%p] %q%u@%d/%a '
log_lock_waits    = on
deadlock_timeout  = '100ms'
lc_messages       = 'C'
log_timezone      = 'UTC'
log_filename      = 'postgresql.log'  (no rotation)
fsync = off, max_connections = 300, listen on 127.0.0.1; everything else default
(log_error_verbosity = default, log_min_messages = warning, log_min_error_statement = error,
track_activity_query_size = 1024)
\`\`\`

Sessions are psql (one application_name per session, \`lg_<scenario>_<A|B|C>\`) and
pgbench (\`lg_checkout\`), all connecting over TCP as \`postgres\` to database \`lockgraph\`.

## scenarios.log, scenarios.csv, scenarios.json

The same run written by the three destinations ($(size_of "$OUT/scenarios.log"), $(size_of "$OUT/scenarios.csv"), $(size_of "$OUT/scenarios.json")).

| scenario | what happens | backend pids |
|---|---|---|
| two_way | A and B update accounts 1, 2 in opposite order; one 2-process deadlock on transaction locks, victim B | $(pids MAIN_PIDS two_way) |
| three_way | A, B, C each hold one account and want the next one; one 3-process cycle on transaction locks, victim C | $(pids MAIN_PIDS three_way) |
| lock_wait | A holds account 5 for ~1.5 s; B waits (\`still waiting\`), then \`acquired\` | $(pids MAIN_PIDS lock_wait) |
| lock_timeout | A holds account 7; B with \`lock_timeout = '500ms'\` waits, then \`canceling statement due to lock timeout\` | $(pids MAIN_PIDS lock_timeout) |
| chain | A holds account 8; B holds 9 and waits for 8; C waits for 9: chain C -> B -> A, no deadlock | $(pids MAIN_PIDS chain) |
| checkout | pgbench, 30 clients x 10 transactions, each updating 3-5 of 100 inventory rows in random order ($((${MAIN_PIDS[checkout.rounds]:-1})) round(s)) | many |

Counts (from the csvlog; the stderr log agrees: $LOG_DEADLOCKS \`ERROR:  deadlock detected\`, $LOG_STILL \`still waiting\` lines):

- \`deadlock detected\` errors: **$DEADLOCKS** (by application: $BY_APP)
- cycle sizes (processes: deadlocks): $SIZES
- \`ExclusiveLock on tuple\` edges: $TUPLE_EDGES, in $TUPLE_CYCLES cycles ($BIG_TUPLE of them with >= 3 processes)
- \`still waiting\`: $MSG_STILL_WAITING, \`acquired\`: $MSG_ACQUIRED,
  \`detected deadlock while waiting\`: $MSG_DETECTED_WHILE_WAITING, \`avoided deadlock\`: $MSG_AVOIDED,
  \`failed to acquire\`: $MSG_FAILED_ACQUIRE, lock timeouts: $MSG_LOCK_TIMEOUT

## prefix-pgbadger.log

A second cluster, stderr only, with
\`log_line_prefix = '%t [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h '\` (the prefix pgbadger's
documentation recommends), running only two_way and lock_wait
($(size_of "$OUT/prefix-pgbadger.log")): $PGB_DEADLOCKS \`deadlock detected\`, $PGB_STILL \`still waiting\` lines.
Note \`%t\` has no milliseconds and \`%l\` counts every physical prefixed line of a
message (\`[1-1]\` LOG, \`[2-1]\` DETAIL, ...).

| scenario | backend pids |
|---|---|
| two_way | $(pids PGB_PIDS two_way) |
| lock_wait | $(pids PGB_PIDS lock_wait) |
EOF

for f in "$OUT"/scenarios.* "$OUT/prefix-pgbadger.log"; do
  if [ "$(stat -c %s "$f")" -gt 2097152 ]; then
    echo "make-samples: warning: $f is larger than 2 MB" >&2
  fi
done
echo "make-samples: wrote $OUT in $((SECONDS - T0)) s: $DEADLOCKS deadlocks (sizes $SIZES), $TUPLE_EDGES tuple edges, $MSG_STILL_WAITING still waiting"
