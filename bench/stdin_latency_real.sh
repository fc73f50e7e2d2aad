#!/usr/bin/env bash
# Real-server latency of `tail -F log | lockgraph analyze --format ndjson -`
# (issue 20; docs/performance.md, "Latency of the pipe filter"). Starts a
# throwaway PostgreSQL cluster (scripts/pg-cluster.sh, 127.0.0.1:PORT) with
# deadlock_timeout = 100ms and log_lock_waits = off, so that nothing follows
# a deadlock's message in the log (the record must leave on the quiet pause,
# not on a next message); follows its stderr log with `tail -F` into
# lockgraph; makes N two-way deadlocks with psql, one every 1.5 s; prints for
# each deadlock event the time from its ERROR line's own timestamp (%m: the
# server's clock, this machine's) to the event's line on lockgraph's stdout,
# then the median and max. Stops the cluster and removes it on exit. Never
# run as a test. KEEP=1 keeps the folder (log, events.ndjson) for a look.
#
#   bench/stdin_latency_real.sh LOCKGRAPH [N=10] [PORT=54731]
set -euo pipefail
LG=$(realpath "${1:?usage: stdin_latency_real.sh LOCKGRAPH [N] [PORT]}")
N=${2:-10}
PORT=${3:-54731}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIR=$(mktemp -d /tmp/lockgraph-latency.XXXXXX)
chmod 755 "$DIR"
CLUSTER="$ROOT/scripts/pg-cluster.sh"
cleanup() {
  if [ -n "${TAIL_PID:-}" ]; then kill "$TAIL_PID" 2>/dev/null || true; fi
  "$CLUSTER" stop "$DIR" >/dev/null 2>&1 || true
  if [ -n "${KEEP:-}" ]; then echo "kept $DIR" >&2; else rm -rf "$DIR"; fi
}
trap cleanup EXIT
PGCLUSTER_EXTRA_CONF=$'deadlock_timeout = 100ms\nlog_lock_waits = off' "$CLUSTER" start "$DIR" "$PORT" >/dev/null
psql() { "$CLUSTER" psql "$DIR" "$PORT" -q -v ON_ERROR_STOP=0 "$@"; }
psql -c "CREATE TABLE lat (id int PRIMARY KEY, v int); INSERT INTO lat VALUES (1, 0), (2, 0);"

# One deadlock: two sessions lock rows 1 and 2 in opposite orders.
deadlock() {
  local a b
  psql -c "BEGIN; UPDATE lat SET v = v + 1 WHERE id = 1; SELECT pg_sleep(0.3); UPDATE lat SET v = v + 1 WHERE id = 2; COMMIT;" >/dev/null 2>&1 &
  a=$!
  psql -c "BEGIN; UPDATE lat SET v = v + 1 WHERE id = 2; SELECT pg_sleep(0.3); UPDATE lat SET v = v + 1 WHERE id = 1; COMMIT;" >/dev/null 2>&1 &
  b=$!
  wait "$a" "$b" || true
}

OUT="$DIR/latency.txt"
# tail -F's first lines are the server's start; lockgraph sniffs them when
# the log pauses. --prefix: sniffed on those lines alone (no session, so no
# %q part), the prefix would be "%m [%p] " and no session line would fit
# (docs/performance.md, "Latency of the pipe filter"). The reader stamps each
# deadlock event on arrival.
{ tail -n 10 -F "$DIR/log/postgresql.log" 2>/dev/null & echo $! >"$DIR/tail.pid"; wait; } |
  "$LG" analyze --prefix '%m [%p] %q%u@%d/%a ' --format ndjson - 2>"$DIR/lockgraph.err" | tee "$DIR/events.ndjson" |
  python3 -u -c '
import datetime, json, sys
for line in sys.stdin:
    now = datetime.datetime.now(datetime.timezone.utc)
    e = json.loads(line)
    if e.get("type") != "deadlock":
        continue
    t = datetime.datetime.strptime(e["time"], "%Y-%m-%d %H:%M:%S.%f UTC").replace(tzinfo=datetime.timezone.utc)
    print("%.1f" % ((now - t).total_seconds() * 1000), flush=True)
' >"$OUT" &
READER=$!
sleep 1
TAIL_PID=$(cat "$DIR/tail.pid")
sleep 1  # the first lines are sniffed after the log has paused 300 ms
for _ in $(seq "$N"); do
  deadlock
  sleep 1.5
done
kill "$TAIL_PID"
wait "$READER" || true
python3 - "$OUT" "$N" <<'EOF'
import statistics, sys
ms = [float(x) for x in open(sys.argv[1])]
print("%d of %s deadlocks came out; ms from the ERROR line's timestamp to the event on stdout: %s"
      % (len(ms), sys.argv[2], " ".join("%.0f" % x for x in ms)))
if ms:
    print("median %.1f ms, max %.1f ms" % (statistics.median(ms), max(ms)))
EOF
