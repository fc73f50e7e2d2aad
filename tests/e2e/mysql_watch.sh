#!/usr/bin/env bash
# End-to-end test of `lockgraph watch mysql://` against a live MariaDB 10.11
# (CTest: e2e_mysql_watch), started on a free loopback port with
# performance_schema on (metadata locks). One `watch --format ndjson` runs
# through: an idle-in-transaction root blocker with two waiters; a chain of
# three; a deadlock, reported by the next poll with both transactions; the
# server restarted (watch reconnects and goes on, the waits of the dead
# sessions end); an ALTER TABLE queued on a metadata lock. Then --once with
# json and text, the credentials from ~/.my.cnf, MYSQL_PWD and a socket, and
# refused logins (wrong password, unknown database): exit 2 at once, no
# retry, no password printed; last, one watch of this MariaDB and a throwaway
# PostgreSQL cluster. Events are checked whole (tests/e2e/mysql_watch.py).
#   tests/e2e/mysql_watch.sh LOCKGRAPH_BIN
# Prints one line per check and "N passed, M failed". Needs mariadb-server,
# mariadb-client, postgresql, python3.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
source "$HERE/lib.sh"
e2e_begin e2e_mysql_watch "${1:-}"
command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] ||
  e2e_fail_all "mariadb-server is not installed (scripts/setup.sh)"
SRV="$ROOT/scripts/mariadb-server.sh"
SDIR="$WORK/my"
LOG="$WORK/clients"
mkdir -p "$LOG"
HOLD=120
# shellcheck source=../../scripts/mysql-watch-scenarios.sh
source "$ROOT/scripts/mysql-watch-scenarios.sh"
WPID=""
cleanup() {
  [ -n "$WPID" ] && kill "$WPID" 2>/dev/null
  mw_end_sessions
  "$SRV" stop "$SDIR" >/dev/null 2>&1
  _e2e_cleanup
}
trap cleanup EXIT
CHECKER="$HERE/mysql_watch.py"
PW='pw-Secret-42'

# A free loopback port outside the PostgreSQL tests' range (54330-55329).
free_port() {
  python3 - <<'PY'
import random, socket
for _ in range(200):
    port = random.randint(33100, 33999)
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port)); print(port); break
    except OSError:
        pass
    finally:
        s.close()
PY
}
started=""
for attempt in 1 2 3; do
  PORT=$(free_port)
  if MARIADB_EXTRA_CONF="performance_schema = ON
performance_schema_instrument = 'wait/lock/metadata/sql/mdl=ON'" "$SRV" start "$SDIR" "$PORT" \
    >"$WORK/server.out" 2>&1; then started=1; break; fi
done
[ -n "$started" ] || { cat "$WORK/server.out"; e2e_fail_all "could not start MariaDB"; }
echo "e2e_mysql_watch: MariaDB on 127.0.0.1:$PORT"
mw_sql -e "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1'; GRANT ALL ON *.* TO 'root'@'127.0.0.1';
  CREATE USER 'lgwatch'@'127.0.0.1' IDENTIFIED BY '$PW';
  GRANT PROCESS ON *.* TO 'lgwatch'@'127.0.0.1';
  GRANT SELECT ON performance_schema.* TO 'lgwatch'@'127.0.0.1';
  GRANT SELECT ON shop.* TO 'lgwatch'@'127.0.0.1';" || e2e_fail_all "could not create users"
mw_setup || e2e_fail_all "could not create the tables"
URI="mysql://lgwatch:$PW@127.0.0.1:$PORT/shop"

verdict() {  # verdict NAME RESULT: RESULT is "ok" or what went wrong
  if [ "$1" != "" ] && [ "$2" = ok ]; then check pass "$1"; else check fail "$1" "$2"; fi
}
# until_event WHAT ARGS...: waits (15 s) until the checker finds it in the ndjson.
until_event() {
  local i out
  for i in $(seq 1 150); do
    out=$(python3 "$CHECKER" "$@" <"$WORK/watch.ndjson" 2>&1)
    [ "$out" = ok ] && { echo ok; return 0; }
    kill -0 "$WPID" 2>/dev/null || { echo "watch exited: $(cat "$WORK/watch.err")"; return 1; }
    sleep 0.1
  done
  echo "$out"
  return 1
}

# ---- refused logins: exit 2 at once, no retry, no password --------------------------
t0=$SECONDS
"$BIN" watch --interval 200ms "mysql://lgwatch:wrong-pw-77@127.0.0.1:$PORT/shop" \
  >"$WORK/refused.out" 2>"$WORK/refused.err"
rc=$?
verdict "wrong password: exit 2 without retrying, one line, password masked" "$(
  python3 "$CHECKER" refused "$rc" "$((SECONDS - t0))" "$WORK/refused.out" "$WORK/refused.err" \
    "mysql://lgwatch:***@127.0.0.1:$PORT/shop" "Access denied for user 'lgwatch'@'127.0.0.1'" 1045 wrong-pw-77)"
"$BIN" watch --once "mysql://root@127.0.0.1:$PORT/nosuchdb" >"$WORK/nodb.out" 2>"$WORK/nodb.err"
rc=$?
verdict "unknown database: exit 2, not retried" "$(
  python3 "$CHECKER" refused "$rc" 0 "$WORK/nodb.out" "$WORK/nodb.err" \
    "mysql://root@127.0.0.1:$PORT/nosuchdb" "Unknown database 'nosuchdb'" 1049 "$PW")"

# ---- one watch through the scenarios -------------------------------------------------
"$BIN" watch --format ndjson --interval 300ms "$URI" >"$WORK/watch.ndjson" 2>"$WORK/watch.err" &
WPID=$!
mw_idle_blocker || check fail "idle blocker set up"
A=$(mw_id idle_A) B=$(mw_id idle_B) C=$(mw_id idle_C)
verdict "idle-in-transaction root $A with waiters $B and $C: chain, MY009 with KILL $A" \
  "$(until_event idle "$A" "$B" "$C")"
verdict "wait_started for $B and $C, blocked by $A" "$(until_event started "$B:$A" "$C:$A,$B")"

mw_chain3 || check fail "chain set up"
D=$(mw_id chain_D) E=$(mw_id chain_E) F=$(mw_id chain_F)
verdict "chain of three: $D <- $E <- $F" "$(until_event chain3 "$D" "$E" "$F")"

mw_deadlock
G=$(mw_id dl_G) H=$(mw_id dl_H)
verdict "deadlock of $G and $H reported by the next poll with both transactions" \
  "$(until_event deadlock "$G" "$H")"
"$BIN" watch --once --format json "$URI" >"$WORK/before.json" 2>"$WORK/before.err"
verdict "--once after it: the same deadlock, marked before_watch" "$(
  python3 "$CHECKER" before_watch $? "$G" "$H" <"$WORK/before.json")"

# ---- the server restarts under the watch ---------------------------------------------
"$SRV" stop "$SDIR" >/dev/null 2>&1
mw_end_sessions
sleep 1.5
MARIADB_EXTRA_CONF="performance_schema = ON
performance_schema_instrument = 'wait/lock/metadata/sql/mdl=ON'" "$SRV" start "$SDIR" "$PORT" \
  >"$WORK/server2.out" 2>&1 || check fail "restart" "$(cat "$WORK/server2.out")"
verdict "restart: the lost connection is reported and the waits of dead sessions end" \
  "$(until_event ended "$B" "$C" "$E" "$F")"
for i in $(seq 1 100); do grep -q "polling again after" "$WORK/watch.err" && break; sleep 0.1; done
verdict "restart: watch says it polls again" "$(
  python3 "$CHECKER" restart "$WORK/watch.err" "mysql://lgwatch:***@127.0.0.1:$PORT/shop")"
mw_mdl || check fail "metadata lock set up"
K=$(mw_id mdl_K) L=$(mw_id mdl_L) M=$(mw_id mdl_M)
verdict "after the restart: ALTER TABLE $L waits for $K's metadata lock, $M queues behind it" \
  "$(until_event mdl "$K" "$L" "$M")"
kill -TERM "$WPID"
wait "$WPID"
rc=$?
WPID=""
verdict "watch stops on SIGTERM with exit 0 and a summary" "$(
  python3 "$CHECKER" summary "$rc" <"$WORK/watch.ndjson")"

# ---- --once: json and text; the deadlock seen before the watch began -----------------
"$BIN" watch --once --format json "$URI" >"$WORK/once.json" 2>"$WORK/once.err"
rc=$?
verdict "--once json: the metadata-lock tree, no deadlock since the restart" "$(
  python3 "$CHECKER" once_json "$rc" "$K" "$L" "$M" <"$WORK/once.json")"
"$BIN" watch --once --format text --color never "$URI" >"$WORK/once.txt" 2>&1
verdict "--once text: idle root flagged, KILL shown" "$(
  python3 "$CHECKER" once_text "$K" <"$WORK/once.txt")"

# ---- where credentials come from ------------------------------------------------------
mkdir -p "$WORK/home"
printf '[client]\nuser = lgwatch\npassword = %s\n' "$PW" >"$WORK/home/.my.cnf"
chmod 600 "$WORK/home/.my.cnf"
HOME="$WORK/home" "$BIN" watch --once --format json "mysql://127.0.0.1:$PORT/shop" \
  >"$WORK/mycnf.json" 2>"$WORK/mycnf.err"
verdict "~/.my.cnf [client]: user and password" "$(python3 "$CHECKER" once_ok $? <"$WORK/mycnf.json")"
HOME="$WORK" MYSQL_PWD="$PW" "$BIN" watch --once --format json "mysql://lgwatch@127.0.0.1:$PORT/shop" \
  >"$WORK/pwd.json" 2>"$WORK/pwd.err"
verdict "MYSQL_PWD" "$(python3 "$CHECKER" once_ok $? <"$WORK/pwd.json")"
HOME="$WORK" "$BIN" watch --once --format json "mariadb://root@localhost/shop?socket=$SDIR/mysqld.sock" \
  >"$WORK/sock.json" 2>"$WORK/sock.err"
verdict "mariadb:// over the unix socket" "$(python3 "$CHECKER" once_ok $? <"$WORK/sock.json")"
# ---- beside a PostgreSQL server in one watch -------------------------------------------
MYPORT=$PORT
if e2e_start_cluster "" >"$WORK/pg-start.out" 2>&1; then
  "$BIN" watch --once --format json "$URI" "host=127.0.0.1 port=$PORT user=postgres dbname=postgres" \
    >"$WORK/mixed.json" 2>"$WORK/mixed.err"
  verdict "one watch of MariaDB and PostgreSQL: both polled, each with its engine" "$(
    python3 "$CHECKER" mixed $? "mysql://lgwatch:***@127.0.0.1:$MYPORT/shop" \
      "host=127.0.0.1 port=$PORT user=postgres dbname=postgres" <"$WORK/mixed.json")"
else
  check fail "one watch of MariaDB and PostgreSQL" "no PostgreSQL cluster: $(tail -3 "$WORK/pg-start.out")"
fi
if grep -rl -- "$PW" "$WORK"/*.json "$WORK"/*.err "$WORK"/*.out "$WORK"/*.ndjson "$WORK"/*.txt >/dev/null 2>&1; then
  check fail "no password in any output" "$(grep -rl -- "$PW" "$WORK"/*.json "$WORK"/*.err "$WORK"/*.ndjson 2>/dev/null)"
else
  check pass "no password in any output"
fi
finish
