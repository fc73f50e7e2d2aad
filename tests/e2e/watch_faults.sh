#!/usr/bin/env bash
# `lockgraph watch` under faults, against a real PostgreSQL server (CTest
# e2e_watch_faults). One `watch --format ndjson` runs through all of them, in order,
# and must keep running, say each on stderr and lose no state (docs/watch.md#faults):
#   1. connection refused at start (the cluster is stopped), then the server starts;
#   2. a wait W1 (a SELECT queued behind LOCK TABLE) is seen once;
#   3. polls cancelled by the poller's statement_timeout (--statement-timeout 50ms;
#      a session holding 100,000 advisory locks makes pg_locks slow), then that
#      session ends and a second wait W2 is seen: W1 is not started again;
#   4. the server is restarted: wait_ended for W1 and W2 (their sessions died);
#   5. a wait W3 after the restart is seen.
# Then `watch --once` as a role without pg_read_all_stats while W3 holds.
#   tests/e2e/watch_faults.sh LOCKGRAPH_BIN
# Prints one line per check and "N passed, M failed". Needs PostgreSQL 14+, python3.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
source "$HERE/lib.sh"
e2e_begin e2e_watch_faults "${1:-}"
export LSAN_OPTIONS="suppressions=$HERE/lsan-libpqxx.supp:fast_unwind_on_malloc=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

# ---- cluster: created, set up, stopped again (watch must start against nothing) -----
# 100,000 advisory locks in one session need room in the shared lock table.
CONF="max_locks_per_transaction = 512"  # x 300 connections
e2e_start_cluster "$CONF" || { check fail "cluster" "could not start"; finish; }
PSQL=("$(_lg_bindir)/psql" -X -q -At -h 127.0.0.1 -p "$PORT" -U postgres -d postgres)
"${PSQL[@]}" -v ON_ERROR_STOP=1 -c "CREATE TABLE queue (id int)" \
  -c "CREATE ROLE lg_monitor LOGIN" >/dev/null || { check fail "setup" "psql failed"; finish; }
"$CLUSTER" stop "$PGDIR" >/dev/null 2>&1
DSN="host=127.0.0.1 port=$PORT user=postgres dbname=postgres"

# ---- helpers ----------------------------------------------------------------------
# session APP SQL: a psql session in the background (its backend ends with the server).
session() { PGAPPNAME=$1 "${PSQL[@]}" -c "$2" >/dev/null 2>&1 & BG_PIDS+=($!); }
# backend APP: the pid of the session's backend once it waits for a lock (or holds).
backend() {
  local i p
  for i in $(seq 1 200); do
    p=$("${PSQL[@]}" -c "select pid from pg_stat_activity where application_name = '$1' $2" 2>/dev/null)
    [ -n "$p" ] && { echo "$p"; return 0; }
    sleep 0.05
  done
  return 1
}
# until_grep FILE PATTERN SECONDS: waits for a line (grep -E) in FILE.
until_grep() {
  local i
  for i in $(seq 1 $(($3 * 10))); do
    grep -qE -- "$2" "$1" 2>/dev/null && return 0
    kill -0 "$WPID" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
# count TYPE PID: ndjson events of TYPE whose waiter is PID.
count() {
  python3 - "$WORK/watch.ndjson" "$1" "$2" <<'PY'
import json, sys
path, kind, pid = sys.argv[1], sys.argv[2], int(sys.argv[3])
n = 0
for line in open(path):
    e = json.loads(line)
    if e["type"] == kind and e.get("waiter", {}).get("pid") == pid:
        n += 1
print(n)
PY
}
alive() { kill -0 "$WPID" 2>/dev/null; }

# ---- 1. connection refused at start -------------------------------------------------
"$BIN" watch --format ndjson --interval 200ms --statement-timeout 50ms --duration 170s "$DSN" \
  >"$WORK/watch.ndjson" 2>"$WORK/watch.err" &
WPID=$!
BG_PIDS+=($WPID)
if until_grep "$WORK/watch.err" "could not connect: .*; retrying in 1.0 s" 10 && alive; then
  check pass "connection refused at start: said, still running" "$(head -1 "$WORK/watch.err" | cut -c1-160)"
else
  check fail "connection refused at start: said, still running" "$(head -c 300 "$WORK/watch.err")"
fi
PGCLUSTER_EXTRA_CONF="$CONF" "$CLUSTER" start "$PGDIR" "$PORT" >"$WORK/start2.out" 2>&1 \
  || { cat "$WORK/start2.out"; check fail "cluster" "could not start again"; finish; }
if until_grep "$WORK/watch.err" "polling again after [0-9]+ failed poll" 40; then
  check pass "connection refused at start: polls once the server is up" "$(grep -m1 'polling again' "$WORK/watch.err" | cut -c1-160)"
else
  check fail "connection refused at start: polls once the server is up" "$(tail -c 300 "$WORK/watch.err")"
fi

# ---- 2. a wait ----------------------------------------------------------------------
session lg_holder "BEGIN; LOCK TABLE queue IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(300)"
backend lg_holder "and wait_event = 'PgSleep'" >/dev/null
session lg_w1 "SELECT count(*) FROM queue"
W1=$(backend lg_w1 "and wait_event_type = 'Lock'")
if [ -n "$W1" ] && until_grep "$WORK/watch.ndjson" "\"type\":\"wait_started\".*\"pid\":$W1[,}]" 15; then
  check pass "wait W1 seen" "pid $W1"
else
  check fail "wait W1 seen" "pid '$W1': $(tail -c 300 "$WORK/watch.ndjson")"
fi

# ---- 3. statement timeout ------------------------------------------------------------
session lg_bigholder "BEGIN; SELECT count(pg_advisory_xact_lock(g)) FROM generate_series(1, 100000) g; SELECT pg_sleep(300)"
backend lg_bigholder "and wait_event = 'PgSleep'" >/dev/null
if until_grep "$WORK/watch.err" "statement timeout \(SQLSTATE 57014\)" 30 && alive; then
  n=$(grep -c "statement timeout" "$WORK/watch.err")
  check pass "statement timeout: said, still running" "$n polls cancelled: $(grep -m1 'statement timeout' "$WORK/watch.err" | cut -c1-150)"
else
  check fail "statement timeout: said, still running" "$(tail -c 300 "$WORK/watch.err")"
fi
"${PSQL[@]}" -c "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'lg_bigholder'" >/dev/null
session lg_w2 "SELECT count(*) FROM queue"
W2=$(backend lg_w2 "and wait_event_type = 'Lock'")
if [ -n "$W2" ] && until_grep "$WORK/watch.ndjson" "\"type\":\"wait_started\".*\"pid\":$W2[,}]" 15; then
  a=$(count wait_started "$W1") b=$(count wait_ended "$W1")
  if [ "$a" = 1 ] && [ "$b" = 0 ]; then
    check pass "after the timeouts: W2 seen, W1 kept (started once, not ended)" "pid $W2"
  else
    check fail "after the timeouts: W2 seen, W1 kept (started once, not ended)" "W1 started $a, ended $b"
  fi
else
  check fail "after the timeouts: W2 seen, W1 kept (started once, not ended)" "pid '$W2': $(tail -c 300 "$WORK/watch.err")"
fi

# ---- 4. server restart -----------------------------------------------------------------
lines=$(wc -l <"$WORK/watch.err")
"$CLUSTER" stop "$PGDIR" >/dev/null 2>&1
sleep 1.5
PGCLUSTER_EXTRA_CONF="$CONF" "$CLUSTER" start "$PGDIR" "$PORT" >"$WORK/start3.out" 2>&1 \
  || { cat "$WORK/start3.out"; check fail "cluster" "could not restart"; finish; }
if until_grep "$WORK/watch.ndjson" "\"type\":\"wait_ended\".*\"pid\":$W2[,}]" 40 &&
   until_grep "$WORK/watch.ndjson" "\"type\":\"wait_ended\".*\"pid\":$W1[,}]" 5; then
  said=$(tail -n +"$((lines + 1))" "$WORK/watch.err")
  if echo "$said" | grep -qE "(connection lost|could not connect): .*retrying in" &&
     echo "$said" | grep -q "polling again after"; then
    check pass "server restart: said, reconnected, W1 and W2 ended" \
      "$(echo "$said" | head -1 | cut -c1-150)"
  else
    check fail "server restart: said, reconnected, W1 and W2 ended" "stderr: $said"
  fi
else
  check fail "server restart: said, reconnected, W1 and W2 ended" "$(tail -c 400 "$WORK/watch.ndjson")"
fi
a=$(count wait_started "$W1") b=$(count wait_ended "$W1") c=$(count wait_started "$W2") d=$(count wait_ended "$W2")
[ "$a$b$c$d" = 1111 ] && check pass "no wait started or ended twice" \
  || check fail "no wait started or ended twice" "W1 $a/$b, W2 $c/$d"

# ---- 5. a wait after the restart ---------------------------------------------------------
session lg_holder2 "BEGIN; LOCK TABLE queue IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(300)"
H2=$(backend lg_holder2 "and wait_event = 'PgSleep'")
session lg_w3 "SELECT count(*) FROM queue"
W3=$(backend lg_w3 "and wait_event_type = 'Lock'")
if [ -n "$W3" ] && until_grep "$WORK/watch.ndjson" "\"type\":\"wait_started\".*\"pid\":$W3[,}]" 15 && alive; then
  check pass "wait W3 after the restart seen" "pid $W3"
else
  check fail "wait W3 after the restart seen" "pid '$W3': $(tail -c 300 "$WORK/watch.ndjson")"
fi

# ---- a role without pg_read_all_stats --------------------------------------------------
RDSN="host=127.0.0.1 port=$PORT user=lg_monitor dbname=postgres"
timeout 30 "$BIN" watch --once --format json "$RDSN" >"$WORK/role.json" 2>"$WORK/role.err"
rc=$?
out=$(python3 - "$WORK/role.json" "$H2" "$W3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
h2, w3 = int(sys.argv[2]), int(sys.argv[3])
chains = [e for e in d["events"] if e["type"] == "chain"]
problems = []
if not d["servers"][0]["ok"]:
    problems.append("server not ok")
if len(chains) != 1:
    problems.append(f"{len(chains)} chains")
else:
    c = chains[0]
    if c["root_blocker"] != h2 or [m["id"] for m in c["members"]] != [h2, w3]:
        problems.append(f"chain {c['root_blocker']} {[m['id'] for m in c['members']]}")
    for m in c["members"]:
        if "insufficient" in json.dumps(m):
            problems.append(f"member {m['id']} shows the placeholder as a query")
print("ok" if not problems else "; ".join(problems))
PY
)
want="the queries of 2 backend(s) are hidden from this role (grant it pg_read_all_stats"
if [ $rc = 0 ] && [ "$out" = ok ] && grep -qF "$want" "$WORK/role.err" && [ "$(grep -c hidden "$WORK/role.err")" = 1 ]; then
  check pass "role without pg_read_all_stats: chain complete, queries hidden, said once" \
    "$(cut -c1-150 "$WORK/role.err")"
else
  check fail "role without pg_read_all_stats: chain complete, queries hidden, said once" \
    "exit $rc, $out, stderr: $(head -c 300 "$WORK/role.err")"
fi

# ---- a login the server refuses: said once, not retried, exit 2 ------------------------
"${PSQL[@]}" -c "CREATE ROLE lg_pw LOGIN PASSWORD 'Right-Pass-1'" >/dev/null
HBA="$PGDIR/data/pg_hba.conf"
{ echo "host all lg_pw 127.0.0.1/32 scram-sha-256"; cat "$HBA"; } >"$WORK/hba.new" && cat "$WORK/hba.new" >"$HBA"
"${PSQL[@]}" -c "SELECT pg_reload_conf()" >/dev/null
refused() {  # refused NAME DSN WANT: watch stops at once with exit 2, says WANT, never a password
  local t0=$SECONDS rc
  PGPASSWORD=Env-Pass-3 timeout 30 "$BIN" watch --interval 200ms "$2" >"$WORK/$1.out" 2>"$WORK/$1.err"
  rc=$?
  if [ $rc = 2 ] && [ $((SECONDS - t0)) -lt 10 ] && grep -qF "$3" "$WORK/$1.err" &&
     grep -qF "not retried" "$WORK/$1.err" && [ "$(grep -c 'lockgraph watch:' "$WORK/$1.err")" = 1 ] &&
     ! grep -qE "Wrong-Pass-2|Env-Pass-3|Right-Pass-1" "$WORK/$1.err" "$WORK/$1.out"; then
    check pass "$1: stops with exit 2, not retried, no password shown" "$(head -c 200 "$WORK/$1.err")"
  else
    check fail "$1: stops with exit 2, not retried, no password shown" \
      "exit $rc after $((SECONDS - t0)) s: $(head -c 400 "$WORK/$1.err")"
  fi
}
refused "wrong password" "host=127.0.0.1 port=$PORT user=lg_pw password=Wrong-Pass-2 dbname=postgres" \
  "password authentication failed"
# libpq reads a conninfo string's dbname as a name, not as a URI: it fails to connect
# (no socket), and the URI's password is still masked everywhere.
PGPASSWORD=Env-Pass-3 timeout 30 "$BIN" watch --once "dbname=postgresql://lg_pw:Wrong-Pass-2@127.0.0.1:$PORT/postgres" \
  >"$WORK/uri.out" 2>"$WORK/uri.err"
rc=$?
if [ $rc = 2 ] && grep -qF "lg_pw:***@" "$WORK/uri.err" && ! grep -qE "Wrong-Pass-2|Env-Pass-3" "$WORK/uri.err" "$WORK/uri.out"; then
  check pass "a URI given as dbname: its password masked" "$(head -c 160 "$WORK/uri.err")"
else
  check fail "a URI given as dbname: its password masked" "exit $rc: $(head -c 400 "$WORK/uri.err")"
fi
refused "database that does not exist" "host=127.0.0.1 port=$PORT user=postgres dbname=lg_no_such_db" \
  "does not exist"

# ---- the watcher ends normally -----------------------------------------------------------
kill -INT "$WPID"
wait "$WPID"
rc=$?
out=$(python3 - "$WORK/watch.ndjson" <<'PY'
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])][-1]
ok = s["type"] == "summary" and s["failed_polls"] >= 3 and s["polls"] > s["failed_polls"]
print("ok" if ok else s)
PY
)
if [ $rc = 0 ] && [ "$out" = ok ]; then
  check pass "watch ran through every fault and exits 0 on Ctrl-C" "$(tail -1 "$WORK/watch.ndjson")"
else
  check fail "watch ran through every fault and exits 0 on Ctrl-C" "exit $rc, $out"
fi
finish
