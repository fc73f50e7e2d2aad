#!/usr/bin/env bash
# Measures what one `lockgraph watch mysql://` poll costs a MariaDB server
# (docs/mysql.md#cost-of-one-poll):
#
#   scripts/measure-mysql-poll-cost.sh LOCKGRAPH_BIN [WAITERS] [RUNS]
#
# Starts a throwaway MariaDB (scripts/mariadb-server.sh), makes one session
# update WAITERS (default 1000) rows and sleep in its transaction, and starts
# WAITERS waiting sessions as one-shot events of the event scheduler (server
# threads: no client process per session). Two layouts:
#   spread   each waiter waits for its own row (WAITERS wait rows)
#   queued   the waiters queue 100 to a row (MariaDB reports each waiter
#            blocked by the holder and by every waiter ahead of it: about
#            WAITERS * 50 wait rows)
# and, for comparison, idle (the holder alone, nobody waiting). For each:
# rows the query returns, the round trip of docs/mysql-snapshot.sql in a warm
# session set up as the poller's (join_cache_level = 4; MEASURE_SESSION_SQL
# overrides it) (median of RUNS, default 11), of SHOW ENGINE INNODB STATUS,
# and poll_ms of `lockgraph watch --once --format json --statement-timeout
# 30s` (a new connection; the queries without the status).
# Prints a Markdown table.
set -euo pipefail
BIN=${1:?usage: measure-mysql-poll-cost.sh LOCKGRAPH_BIN [WAITERS] [RUNS]}
WAITERS=${2:-1000}
RUNS=${3:-11}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac
SRV="$HERE/mariadb-server.sh"
SDIR=$(mktemp -d /tmp/lockgraph-mypollcost.XXXXXX)
HOLDER_PID=""
cleanup() {
  [ -n "$HOLDER_PID" ] && kill "$HOLDER_PID" 2>/dev/null || true
  "$SRV" stop "$SDIR" >/dev/null 2>&1 || true
  rm -rf "$SDIR"
}
trap cleanup EXIT
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
MARIADB_EXTRA_CONF="max_connections = 2000
innodb_lock_wait_timeout = 600
event_scheduler = ON" "$SRV" start "$SDIR" "$PORT" >/dev/null
sql() { "$SRV" sql "$SDIR" --batch "$@"; }
sql -e "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1'; GRANT ALL ON *.* TO 'root'@'127.0.0.1';
  CREATE DATABASE shop; CREATE TABLE shop.item (id INT PRIMARY KEY, n INT) ENGINE=InnoDB;
  USE shop; INSERT INTO item SELECT seq, 0 FROM seq_1_to_$WAITERS;"
URI="mysql://root@127.0.0.1:$PORT/shop"

# The holder: updates every row, then sleeps in its transaction.
mkfifo "$SDIR/holder.fifo"
mariadb --no-defaults -S "$SDIR/mysqld.sock" -uroot shop <"$SDIR/holder.fifo" >/dev/null 2>&1 &
(printf 'BEGIN;\nUPDATE item SET n = n + 1;\n'; exec sleep 3600) >"$SDIR/holder.fifo" &
HOLDER_PID=$!
sleep 1

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# timed SQL: milliseconds of RUNS round trips in one session, median.
timed() {
  python3 - "$SDIR/mysqld.sock" "$RUNS" "$1" <<'PY'
import os, subprocess, sys, time
sock, runs, sql = sys.argv[1], int(sys.argv[2]), sys.argv[3]
# one client, RUNS queries; the client's own start is timed apart and taken off
p = subprocess.run(["mariadb", "--no-defaults", "-S", sock, "-uroot", "-vvv", "--batch"],
                   input=("SELECT 1;\n" + os.environ.get("MEASURE_SESSION_SQL", "SET SESSION join_cache_level = 4;\n") + (sql + ";\n") * runs).encode(), capture_output=True)
out = p.stdout.decode(errors="replace")
import re
times = [float(m) * 1000 for m in re.findall(r"(?:in set|Empty set) \((\d+\.\d+) sec\)", out)][1:]
times.sort()
print(f"{times[len(times) // 2]:.1f}" if times else "n/a")
PY
}
rows() { sql -N <"$HERE/../docs/mysql-snapshot.sql" | wc -l; }
poll_ms() {
  "$BIN" watch --once --format json --statement-timeout 30s "$URI" |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print([e for e in d["events"] if e["type"]=="snapshot"][0]["poll_ms"])'
}
measure() {  # measure STATE
  printf '| %s | %s | %s | %s | %s |\n' "$1" "$(rows)" \
    "$(timed "$(grep -v '^--' "$HERE/../docs/mysql-snapshot.sql" | tr '\n' ' ' | sed 's/;* *$//')")" \
    "$(timed 'SHOW ENGINE INNODB STATUS')" "$(poll_ms)"
}
# waiters LAYOUT: WAITERS one-shot events, each an UPDATE that waits.
start_waiters() {
  local i row
  {
    for i in $(seq 1 "$WAITERS"); do
      if [ "$1" = spread ]; then row=$i; else row=$(( (i - 1) / 100 + 1 )); fi
      echo "CREATE EVENT shop.$1$i ON SCHEDULE AT CURRENT_TIMESTAMP ON COMPLETION NOT PRESERVE DO UPDATE shop.item SET n = n + 1 WHERE id = $row;"
    done
  } | sql
  for i in $(seq 1 600); do
    [ "$(sql -N -e "SELECT COUNT(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'")" -ge "$WAITERS" ] && return 0
    sleep 0.5
  done
  echo "only $(sql -N -e "SELECT COUNT(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'") waiting" >&2
}
stop_waiters() {
  sql -N -e "SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE 'UPDATE shop.item%'" |
    awk '{ print "KILL " $1 ";" }' | sql --force 2>/dev/null || true
  sleep 2
}

echo "MariaDB $(sql -N -e 'SELECT VERSION()'), $WAITERS waiters, medians of $RUNS runs"
echo
echo "| state | rows returned | mysql-snapshot.sql round trip, warm session, ms | SHOW ENGINE INNODB STATUS, ms | lockgraph --once poll_ms (new connection), ms |"
echo "|---|---|---|---|---|"
measure "idle: the holder alone ($WAITERS rows locked)"
start_waiters spread
measure "spread: $WAITERS waiters, one row each"
stop_waiters
start_waiters queued
measure "queued: $WAITERS waiters, 100 to a row"
