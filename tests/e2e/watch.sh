#!/usr/bin/env bash
# End-to-end test of `lockgraph watch` and of pg_locks snapshots as an input of
# `analyze`, against a real PostgreSQL server (registered in CTest as e2e_watch).
#
#   tests/e2e/watch.sh LOCKGRAPH_BIN
#
# Starts a throwaway cluster on a free loopback port (log_statement = 'all', so that
# the poller's session settings can be read back), builds each situation of
# scripts/watch-scenarios.sh and, while it holds, checks that `watch --once` and
# `analyze` of the same moment saved three ways (docs/snapshot.sql as CSV and JSON,
# a plain pg_locks dump) report it exactly: members, root, depths, modes, locks, edge
# bases, cycle. Then the four at once (text, json, ndjson), a tuple-lock queue whose
# holder is terminated (as it comes, and with a poll between the waiter's two locks,
# made with SIGSTOP), several servers, the PG*
# environment and a service file, password masking, the poller's session settings,
# a poller that gives up instead of waiting for a lock, a reconnect after the poller's
# backend is killed, and exit codes. Prints one line per check and "N passed, M failed".
# Needs: PostgreSQL 14+ server and client, python3.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
source "$HERE/lib.sh"
e2e_begin e2e_watch "${1:-}"
# Under AddressSanitizer (scripts/test.sh): one known libpqxx 6.4 leak when a backend
# dies during a query (see the file); full stacks so that the suppression matches.
export LSAN_OPTIONS="suppressions=$HERE/lsan-libpqxx.supp:fast_unwind_on_malloc=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

# ---- cluster ----------------------------------------------------------------------------
source "$ROOT/scripts/watch-scenarios.sh"
e2e_start_cluster "log_statement = 'all'" || { check fail "cluster" "could not start"; finish; }
LG_PG_PORT=$PORT
LG_WORKDIR="$WORK/scenarios"
lg_setup >/dev/null && lgw_setup || { check fail "setup" "lg_setup/lgw_setup failed"; finish; }
DSN="host=127.0.0.1 port=$PORT user=postgres dbname=$LG_PG_DB"
PSQL=("$(_lg_bindir)/psql" -X -h 127.0.0.1 -p "$PORT" -U postgres -d "$LG_PG_DB")

# ---- exact checks (python reads lockgraph's JSON and the scenario pids) -----------------
pids_file() {
  local k
  for k in "${!LG_PIDS[@]}"; do printf '%s=%s\n' "$k" "${LG_PIDS[$k]}"; done >"$WORK/pids.txt"
}

# verify SCENARIO KIND FILE: KIND is watch (a `watch --once --format json` document),
# analyze (an `analyze --format json` document with server-reported edges) or derived
# (analyze of a plain pg_locks dump). Prints "ok" or what differs.
verify() {
  python3 - "$1" "$2" "$3" "$WORK/pids.txt" <<'PY'
import json, sys
scen, kind, path, pids_path = sys.argv[1:5]
P = {}
for line in open(pids_path):
    k, v = line.strip().split("=", 1)
    P[k] = int(v)
try:
    doc = json.load(open(path))
except Exception as e:  # noqa: BLE001
    print(f"no JSON: {e}"); sys.exit()
events = doc.get("events", [])
derived = kind == "derived"
chains = [e for e in events if e["type"] == "chain"]
cycles = [e for e in events if e["type"] == "cycle"]
snaps = [e for e in events if e["type"] == "snapshot"]

def lock(e):
    l = e["lock"]
    if l["type"] == "transactionid": return ("transactionid", l["transactionid"])
    if l["type"] == "relation": return ("relation", l["relation"])
    if l["type"] == "advisory": return ("advisory", l["database"], l["classid"], l["objid"], l["objsubid"])
    return (l["type"],)

def edges(ev):
    return [(e["waiter"], e["blocker"], e["mode"], lock(e), e["basis"], e.get("derived", False))
            for e in ev["edges"]]

def members(ev):
    return [(m["id"], m.get("depth")) for m in ev["members"]]

want_chains, want_cycles = [], []
if scen in ("chain", "all"):
    A, B, C = P["chain.A"], P["chain.B"], P["chain.C"]
    want_chains.append((A, "active", [(A, 0), (B, 1), (C, 2)],
        [(B, A, "ShareLock", ("transactionid", P["chain.A.xid"]), "hard", derived),
         (C, B, "ShareLock", ("transactionid", P["chain.B.xid"]), "hard", derived)]))
if scen in ("idle_blocker", "all"):
    D, E = P["idle_blocker.D"], P["idle_blocker.E"]
    want_chains.append((D, "idle in transaction", [(D, 0), (E, 1)],
        [(E, D, "ShareLock", ("transactionid", P["idle_blocker.D.xid"]), "hard", derived)]))
if scen in ("ddl_queue", "all"):
    H, I, J, rel = P["ddl_queue.H"], P["ddl_queue.I"], P["ddl_queue.J"], P["ddl_queue.relation"]
    want_chains.append((H, "active", [(H, 0), (I, 1), (J, 2)],
        [(I, H, "AccessExclusiveLock", ("relation", rel), "hard", derived),
         (J, I, "AccessShareLock", ("relation", rel), "soft", derived)]))
if scen in ("advisory_cycle", "all"):
    F, G, db = P["advisory_cycle.F"], P["advisory_cycle.G"], P["database"]
    e_f = (F, G, "ExclusiveLock", ("advisory", db, 0, 102, 1), "hard", derived)
    e_g = (G, F, "ExclusiveLock", ("advisory", db, 0, 101, 1), "hard", derived)
    want_cycles.append(([F, G], [e_f, e_g]) if F < G else ([G, F], [e_g, e_f]))
want_chains.sort()

problems = []
if len(snaps) != 1:
    problems.append(f"{len(snaps)} snapshot events")
elif snaps[0]["blocking"] != ("conflict_matrix" if derived else "pg_blocking_pids"):
    problems.append(f"blocking {snaps[0]['blocking']}")
got_chains = sorted((c["root_blocker"], c["members"][0].get("state", "active" if derived else None),
                     members(c), edges(c)) for c in chains)
if derived:  # a plain dump has no pg_stat_activity: no state to compare
    want_chains = [(r, "active", m, e) for r, _, m, e in want_chains]
    got_chains = [(r, "active", m, e) for r, _, m, e in got_chains]
if got_chains != want_chains:
    problems.append(f"chains {got_chains} != {want_chains}")
got_cycles = [([m["id"] for m in c["members"]], edges(c)) for c in cycles]
if got_cycles != want_cycles:
    problems.append(f"cycles {got_cycles} != {want_cycles}")
if snaps and snaps[0].get("chains") != len(want_chains):
    problems.append(f"snapshot.chains {snaps[0].get('chains')}")
print("ok" if not problems else "; ".join(problems))
PY
}

# capture_and_check SCENARIO : runs while the scenario holds.
capture_and_check() {
  local scen=$1 d="$WORK/$1" out kind file
  mkdir -p "$d"
  pids_file
  timeout 30 "$BIN" watch --once --format json "$DSN" >"$d/watch.json" 2>"$d/watch.err"
  echo $? >"$d/watch.rc"
  "${PSQL[@]}" --csv -f "$ROOT/docs/snapshot.sql" >"$d/snapshot.csv" 2>"$d/psql.err"
  "${PSQL[@]}" -At -c "SELECT json_agg(s) FROM ($(cat "$ROOT/docs/snapshot.sql")) s" \
    >"$d/snapshot.json" 2>>"$d/psql.err"
  "${PSQL[@]}" --csv -c "SELECT * FROM pg_catalog.pg_locks" >"$d/pg_locks.csv" 2>>"$d/psql.err"
  for file in snapshot.csv snapshot.json pg_locks.csv; do
    timeout 30 "$BIN" analyze --format json "$d/$file" >"$d/$file.out.json" 2>"$d/$file.err"
  done
  out=$(verify "$scen" watch "$d/watch.json")
  [ "$(cat "$d/watch.rc")" = 0 ] || out="exit $(cat "$d/watch.rc"): $(head -c 300 "$d/watch.err"); $out"
  [ "$out" = ok ] && check pass "$scen: watch --once" || check fail "$scen: watch --once" "$out"
  for file in snapshot.csv snapshot.json pg_locks.csv; do
    kind=analyze
    [ "$file" = pg_locks.csv ] && kind=derived
    out=$(verify "$scen" "$kind" "$d/$file.out.json")
    if [ "$out" = ok ]; then check pass "$scen: analyze $file"
    else check fail "$scen: analyze $file" "$out"; fi
  done
}

for scen in chain idle_blocker advisory_cycle ddl_queue; do
  lgw_hold "$scen" capture_and_check "$scen" >"$WORK/$scen.hold.out" 2>&1 \
    || { cat "$WORK/$scen.hold.out"; check fail "$scen: scenario" "could not be built"; }
  grep -E '^(PASS|FAIL)' "$WORK/$scen.hold.out"  # check() counted them already
done

# ---- all four at once, and the live-view behaviours -------------------------------------
all_at_once() {
  local d="$WORK/all" out n
  mkdir -p "$d"
  pids_file
  capture_and_check all
  # text: every root, the idle-in-transaction flag, the cycle line.
  "$BIN" watch --once "$DSN" >"$d/watch.txt" 2>&1
  out=""
  grep -q "(!) idle in transaction" "$d/watch.txt" || out+="no '(!) idle in transaction'; "
  grep -q "^    ${LG_PIDS[advisory_cycle.F]} -> ${LG_PIDS[advisory_cycle.G]} -> ${LG_PIDS[advisory_cycle.F]}\$" \
    "$d/watch.txt" || grep -q "^    ${LG_PIDS[advisory_cycle.G]} -> ${LG_PIDS[advisory_cycle.F]} -> ${LG_PIDS[advisory_cycle.G]}\$" \
    "$d/watch.txt" || out+="no cycle line; "
  n=$(grep -c "^chain [0-9]" "$d/watch.txt")
  [ "$n" = 3 ] || out+="$n chains; "
  [ -z "$out" ] && check pass "all: watch --once text view" || check fail "all: watch --once text view" "$out"
  # ndjson --once: every wait started, each chain and the cycle once, a summary.
  "$BIN" watch --once --format ndjson "$DSN" >"$d/watch.ndjson" 2>"$d/ndjson.err"
  out=$(python3 - "$d/watch.ndjson" <<'PY'
import json, sys
types = [json.loads(l)["type"] for l in open(sys.argv[1])]
want = ["wait_started"] * 7 + ["cycle"] + ["chain"] * 3 + ["summary"]
print("ok" if types == want else f"types {types}")
PY
)
  [ "$out" = ok ] && check pass "all: watch --once --format ndjson" || check fail "all: watch --once --format ndjson" "$out"
  # dot: one cluster per chain and per cycle, a graph dot accepts.
  "$BIN" watch --once --format dot "$DSN" >"$d/watch.dot" 2>/dev/null
  n=$(grep -c "subgraph cluster_" "$d/watch.dot")
  if [ "$n" = 4 ] && { ! command -v dot >/dev/null || dot -Tsvg "$d/watch.dot" >/dev/null 2>&1; }; then
    check pass "all: watch --once --format dot" "4 clusters"
  else
    check fail "all: watch --once --format dot" "$n clusters"
  fi
  # The snapshot rules run on every poll: PG013 on the cycle, PG014 on the idle root.
  "$BIN" watch --once --format json "$DSN" >"$d/rules.json" 2>/dev/null
  out=$(python3 - "$d/rules.json" "${LG_PIDS[idle_blocker.D]}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
idle = int(sys.argv[2])
ids = lambda e: [f["id"] for f in e.get("findings", [])]
cycles = [ids(e) for e in d["events"] if e["type"] == "cycle"]
roots = {e["root_blocker"]: ids(e) for e in d["events"] if e["type"] == "chain"}
ok = cycles and all("PG013" in c for c in cycles) and "PG014" in roots.get(idle, []) and \
    all("PG014" not in r for k, r in roots.items() if k != idle)
print("ok" if ok else f"cycles {cycles}, chains {roots}")
PY
)
  [ "$out" = ok ] && check pass "all: the snapshot rules on watch (PG013 cycle, PG014 idle root)" ||
    check fail "all: the snapshot rules on watch (PG013 cycle, PG014 idle root)" "$out"
  # Several servers from one process: the same server under two DSNs.
  "$BIN" watch --once --format json "$DSN" "postgresql://postgres@127.0.0.1:$PORT/postgres" \
    >"$d/two.json" 2>"$d/two.err"
  out=$(python3 - "$d/two.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
servers = [s["server"] for s in d["servers"] if s["ok"]]
per = {}
for e in d["events"]:
    if e["type"] in ("chain", "cycle"):
        per[e["source"]["server"]] = per.get(e["source"]["server"], 0) + 1
print("ok" if len(servers) == 2 and sorted(per.values()) == [4, 4] else f"servers {servers}, events {per}")
PY
)
  [ "$out" = ok ] && check pass "several servers from one process" || check fail "several servers from one process" "$out"
}
lgw_hold all all_at_once >"$WORK/all.hold.out" 2>&1 || check fail "all: scenario" "could not be built"
grep -E '^(PASS|FAIL)' "$WORK/all.hold.out"

# ---- a tuple-lock queue whose holder is killed: one wait goes on (wait_changed) ---------
# TA updates account 7 and stays open; TB's UPDATE of it waits for TA's xid (holding the
# tuple lock); TC's waits for the tuple lock behind TB. TA is terminated: TB gets the row,
# and TC, in the same statement, now waits for TB's xid: one wait that changed, not ended.
# tq_build TAG ID: the queue on account ID, sessions named lg_watch_TAG_TA, _TB, _TC.
tq_build() {
  local s
  _LG_SESSIONS=()
  for s in TA TB TC; do _lgw_open $s "lg_watch_$1_$s" && _lg_step $s "BEGIN;" || return 1; done
  _lg_step TA "UPDATE accounts SET balance = balance + 1 WHERE id = $2;" || return 1
  _lg_send TB "UPDATE accounts SET balance = balance + 2 WHERE id = $2;"
  _lgw_wait_lock TB || return 1
  _lg_send TC "UPDATE accounts SET balance = balance + 3 WHERE id = $2;"
  _lgw_wait_lock TC
}
tuple_queue() {
  tq_build tq 7 || return 1
  "$BIN" watch --interval 200ms --format ndjson "$DSN" >"$WORK/tq.ndjson" 2>"$WORK/tq.err" &
  local wpid=$!
  BG_PIDS+=("$wpid")
  for _ in $(seq 100); do grep -q "\"type\":\"wait_started\".*\"pid\":${_LG_BACKEND[TC]}[,}]" "$WORK/tq.ndjson" && break; sleep 0.1; done
  _lg_q -- "select pg_terminate_backend(${_LG_BACKEND[TA]})" >/dev/null
  for _ in $(seq 100); do grep -q '"type":"wait_changed"' "$WORK/tq.ndjson" && break; sleep 0.1; done
  sleep 1  # a few more polls: nothing else may happen to TC's wait
  kill -INT "$wpid"; wait "$wpid"
  TQ_TB=${_LG_BACKEND[TB]} TQ_TC=${_LG_BACKEND[TC]}
  _lgw_terminate_all
  _lg_close_all
}
# tq_verify NDJSON TB TC: TC started once, changed once (tuple -> transactionid, blocked
# by TB), never ended; TB ended once. Prints "ok" or what differs.
tq_verify() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
tb, tc = int(sys.argv[2]), int(sys.argv[3])
def of(pid, t): return [e for e in ev if e["type"] == t and e.get("pid") == pid]
problems = []
if len(of(tc, "wait_started")) != 1: problems.append(f"TC started {len(of(tc, 'wait_started'))}x")
if of(tc, "wait_ended"): problems.append("TC ended")
ch = of(tc, "wait_changed")
if len(ch) != 1:
    problems.append(f"TC changed {len(ch)}x")
else:
    c = ch[0]
    if c["previous_lock"]["type"] != "tuple" or c["waiter"]["waiting_for"]["lock"]["type"] != "transactionid":
        problems.append(f"TC changed from {c['previous_lock']['type']} to {c['waiter']['waiting_for']['lock']['type']}")
    if c["blocked_by"] != [tb]: problems.append(f"TC blocked by {c['blocked_by']}")
    if not c.get("waited_ms", 0) > 0: problems.append("no waited_ms")
if len(of(tb, "wait_ended")) != 1: problems.append(f"TB ended {len(of(tb, 'wait_ended'))}x")
print("ok" if not problems else "; ".join(problems))
PY
}
tuple_queue >"$WORK/tq.out" 2>&1
out=$(tq_verify "$WORK/tq.ndjson" "${TQ_TB:-0}" "${TQ_TC:-0}")
if [ "$out" = ok ]; then
  check pass "tuple-lock queue, holder killed: the waiter behind waits on (wait_changed, tuple -> transactionid)"
else
  check fail "tuple-lock queue, holder killed: the waiter behind waits on (wait_changed, tuple -> transactionid)" \
    "$out; $(tail -c 300 "$WORK/tq.out")"
fi

# ---- the same queue, a poll between the waiter's two locks (docs/watch.md) --------------
# TC's backend is stopped (SIGSTOP) before TA is terminated: TB's release grants TC the
# tuple lock, but TC cannot queue for TB's transaction, so the next poll sees it nowhere
# (what a busy machine does for a few milliseconds). Once such a poll is written (a
# chain_ended with no chain after it), TC goes on (SIGCONT) and waits for TB's xid well
# before the next poll, 1 s later.
tq_no_chain_after_end() {
  python3 - "$1" <<'PY'
import json, sys
types = [json.loads(l)["type"] for l in open(sys.argv[1]) if l.strip()]
end = max((i for i, t in enumerate(types) if t == "chain_ended"), default=None)
sys.exit(0 if end is not None and "chain" not in types[end:] else 1)
PY
}
tuple_gap() {
  tq_build tg 11 || return 1
  "$BIN" watch --interval 1s --format ndjson "$DSN" >"$WORK/tg.ndjson" 2>"$WORK/tg.err" &
  local wpid=$! tc=${_LG_BACKEND[TC]}
  BG_PIDS+=("$wpid")
  for _ in $(seq 100); do grep -q "\"type\":\"wait_started\".*\"pid\":$tc[,}]" "$WORK/tg.ndjson" && break; sleep 0.1; done
  kill -STOP "$tc" || return 1
  _lg_q -- "select pg_terminate_backend(${_LG_BACKEND[TA]})" >/dev/null
  local gap=0
  for _ in $(seq 100); do tq_no_chain_after_end "$WORK/tg.ndjson" && { gap=1; break; }; sleep 0.05; done
  kill -CONT "$tc"
  [ "$gap" = 1 ] || echo "no poll saw the queue gone"
  for _ in $(seq 50); do grep -q '"type":"wait_changed"' "$WORK/tg.ndjson" && break; sleep 0.1; done
  sleep 2.5  # two more polls: nothing else may happen to TC's wait
  kill -INT "$wpid"; wait "$wpid"
  TG_TB=${_LG_BACKEND[TB]} TG_TC=$tc TG_GAP=$gap
  _lgw_terminate_all
  _lg_close_all
}
tuple_gap >"$WORK/tg.out" 2>&1
out=$(tq_verify "$WORK/tg.ndjson" "${TG_TB:-0}" "${TG_TC:-0}")
[ "${TG_GAP:-0}" = 1 ] || out="no poll between the two locks; $out"
if [ "$out" = ok ]; then
  check pass "tuple-lock queue, a poll between the waiter's two locks: still one wait (wait_changed)"
else
  check fail "tuple-lock queue, a poll between the waiter's two locks: still one wait (wait_changed)" \
    "$out; $(tail -c 300 "$WORK/tg.out")"
fi

# ---- connection handling ----------------------------------------------------------------
# PG* environment variables, then a service file, with no DSN at all.
out=$(PGHOST=127.0.0.1 PGPORT=$PORT PGUSER=postgres PGDATABASE=$LG_PG_DB \
      "$BIN" watch --once --format json 2>&1 | python3 -c \
      'import json,sys; d=json.load(sys.stdin); print("ok" if d["servers"][0]["ok"] else d)' 2>&1)
[ "$out" = ok ] && check pass "no DSN: PG* environment variables" || check fail "no DSN: PG* environment variables" "$out"
printf '[lgtest]\nhost=127.0.0.1\nport=%s\nuser=postgres\ndbname=%s\n' "$PORT" "$LG_PG_DB" >"$WORK/pg_service.conf"
out=$(env -u PGHOST -u PGPORT PGSERVICEFILE="$WORK/pg_service.conf" PGSERVICE=lgtest \
      "$BIN" watch --once --format json 2>&1 | python3 -c \
      'import json,sys; d=json.load(sys.stdin); print("ok" if d["servers"][0]["ok"] else d)' 2>&1)
[ "$out" = ok ] && check pass "no DSN: PGSERVICE and a service file" || check fail "no DSN: PGSERVICE and a service file" "$out"

# Passwords are never printed: not on success, not on failure.
SECRET="sekret-$RANDOM$RANDOM"
"$BIN" watch --once "$DSN password=$SECRET" "postgresql://postgres:$SECRET@127.0.0.1:1/x" \
  >"$WORK/mask.out" 2>&1
if grep -q "$SECRET" "$WORK/mask.out"; then check fail "passwords are masked" "$(grep -m1 "$SECRET" "$WORK/mask.out")"
elif grep -q "password=\*\*\*" "$WORK/mask.out" && grep -q "postgres:\*\*\*@127.0.0.1:1" "$WORK/mask.out"; then
  check pass "passwords are masked" "key=value and URI, stdout and stderr"
else check fail "passwords are masked" "masked labels not found"; fi

# The poller's own session: read-only, timeouts, application_name (from log_statement).
LOG="$PGDIR/log/postgresql.log"
out=""
for want in "SET application_name = 'lockgraph'" "SET default_transaction_read_only = on" \
            "SET statement_timeout = 2000" "SET lock_timeout = 100"; do
  grep -qF "$want" "$LOG" || out+="no '$want'; "
done
n=$(grep -c "lockgraph/lockgraph LOG:  statement: -- lockgraph snapshot" "$LOG")
[ "$n" -gt 0 ] || out+="no snapshot query logged under application_name lockgraph; "
[ -z "$out" ] && check pass "poller session: read-only, statement_timeout, lock_timeout, application_name" \
  || check fail "poller session: read-only, statement_timeout, lock_timeout, application_name" "$out"

# The poller never queues for a lock: with pg_locks itself locked it gives up at once.
# (pg_locks is what is locked: wait for the locker through pg_stat_activity only.)
PGAPPNAME=lg_locker "${PSQL[@]}" -q \
  -c "BEGIN; LOCK TABLE pg_catalog.pg_locks IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(20); COMMIT;" \
  >/dev/null 2>&1 &
BG_PIDS+=($!)
for _ in $(seq 1 100); do
  [ "$("${PSQL[@]}" -At -c "select count(*) from pg_stat_activity where application_name = 'lg_locker' and wait_event = 'PgSleep'")" = 1 ] && break
  sleep 0.1
done
t=$SECONDS
timeout 15 "$BIN" watch --once "$DSN" >"$WORK/locked.out" 2>"$WORK/locked.err"
rc=$?
"${PSQL[@]}" -q -c "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'lg_locker'" >/dev/null
if [ $rc = 2 ] && grep -q "lock timeout" "$WORK/locked.err" && [ $((SECONDS - t)) -le 3 ]; then
  check pass "poller gives up instead of waiting for a lock" "exit 2 in $((SECONDS - t)) s: $(head -c 120 "$WORK/locked.err")"
else
  check fail "poller gives up instead of waiting for a lock" "exit $rc after $((SECONDS - t)) s: $(head -c 200 "$WORK/locked.err")"
fi

# Reconnect with backoff: kill the poller's backend between two polls (while idle).
"$BIN" watch --format ndjson --interval 200ms --duration 7s "$DSN" >"$WORK/reconnect.ndjson" \
  2>"$WORK/reconnect.err" &
wpid=$!
BG_PIDS+=($wpid)
seen=""
for _ in $(seq 1 140); do
  p=$("${PSQL[@]}" -At -c "select pid from pg_stat_activity where application_name = 'lockgraph' and state = 'idle'")
  if [ -n "$p" ] && [[ " $seen " != *" $p "* ]]; then
    seen+=" $p"
    [ "$(echo $seen | wc -w)" = 1 ] && "${PSQL[@]}" -q -c "select pg_terminate_backend($p)" >/dev/null
  fi
  kill -0 $wpid 2>/dev/null || break
  sleep 0.05
done
wait $wpid
rc=$?
out=$(python3 - "$WORK/reconnect.ndjson" <<'PY'
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])][-1]
print("ok" if s["type"] == "summary" and s["failed_polls"] >= 1 and s["polls"] > s["failed_polls"] + 2 else s)
PY
)
if [ $rc = 0 ] && [ "$(echo $seen | wc -w)" -ge 2 ] && grep -q "retrying in 1.0 s" "$WORK/reconnect.err" && [ "$out" = ok ]; then
  check pass "reconnect with backoff after the poller's backend is killed" "backends$seen; $(head -c 150 "$WORK/reconnect.err")"
else
  check fail "reconnect with backoff after the poller's backend is killed" "exit $rc, backends '$seen', $out, $(head -c 200 "$WORK/reconnect.err")"
fi

# Exit codes: usage error, a server that cannot be reached.
"$BIN" watch --interval 10ms "$DSN" >/dev/null 2>"$WORK/usage.err"; rc1=$?
"$BIN" watch --once "host=127.0.0.1 port=1" >/dev/null 2>&1; rc2=$?
"$BIN" watch --once "$DSN" >/dev/null 2>&1; rc3=$?
if [ $rc1 = 2 ] && [ $rc2 = 2 ] && [ $rc3 = 0 ]; then check pass "exit codes" "usage 2, unreachable 2, ok 0"
else check fail "exit codes" "usage $rc1, unreachable $rc2, ok $rc3: $(cat "$WORK/usage.err")"; fi

finish
