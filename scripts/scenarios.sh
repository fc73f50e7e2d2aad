# shellcheck shell=bash
# Lock scenarios against a running PostgreSQL cluster (see scripts/pg-cluster.sh).
# Source this file, then call lg_setup once and any scenario_* function.
#
#   LG_PG_PORT   server port on 127.0.0.1            (default 54329)
#   LG_PG_DB     database the scenarios use           (default lockgraph; created by lg_setup)
#   LG_LOGDIR    the cluster's log directory (postgresql.log, postgresql.csv); required by
#                scenario_checkout, and used by the others to wait for `still waiting` lines
#   LG_WORKDIR   scratch dir for fifos and outputs    (default: a new mktemp dir)
#   PG_BINDIR    client binaries                      (default /usr/lib/postgresql/15/bin)
#
# Each scenario drives psql sessions in the background and forces the interleaving from
# here: it sends one statement at a time to each session and polls pg_stat_activity /
# pg_locks until that statement has finished or is waiting on a lock, so the outcome
# (who waits, who is the deadlock victim) does not depend on timing luck.
# Deadlock victims are chosen deterministically: every process in a cycle except the
# last one has already run its deadlock check (waited > deadlock_timeout) before the
# last edge is added, so the last process to wait is the one that finds the cycle.
#
# Scenarios print "scenario_NAME: A=pid B=pid ..." and record the backend pids in the
# global associative array LG_PIDS ("two_way.A", "two_way.victim", ...).
# Every function returns non-zero (and says why on stderr) when the expected outcome
# did not happen.

declare -gA LG_PIDS=()
declare -gA _LG_FD=() _LG_PSQL_PID=() _LG_BACKEND=() _LG_LAST=() _LG_APP=() _LG_WAITS=()
_LG_SESSIONS=()

: "${LG_PG_PORT:=54329}"
: "${LG_PG_DB:=lockgraph}"
: "${LG_POLL_TIMEOUT:=30}"      # seconds any single wait may take

_lg_bindir() {
  if [ -n "${PG_BINDIR:-}" ]; then echo "$PG_BINDIR"
  elif [ -x /usr/lib/postgresql/15/bin/psql ]; then echo /usr/lib/postgresql/15/bin
  else dirname "$(command -v psql)"; fi
}

_lg_err() { echo "scenarios: $*" >&2; }

_lg_psql() {
  "$(_lg_bindir)/psql" -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$LG_PG_PORT" \
    -U postgres "$@"
}

# _lg_q [psql -v args...] -- SQL   : run SQL (read from stdin so :'var' interpolation works)
_lg_q() {
  local args=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do args+=("$1"); shift; done
  shift
  printf '%s\n' "$1" | _lg_psql -d "$LG_PG_DB" "${args[@]}"
}

lg_setup() {
  if [ -z "${LG_WORKDIR:-}" ]; then
    LG_WORKDIR=$(mktemp -d /tmp/lockgraph-scen.XXXXXX) || return 1
  fi
  mkdir -p "$LG_WORKDIR"
  if [ "$(_lg_psql -d postgres -c "select count(*) from pg_database where datname = '$LG_PG_DB'")" = 0 ]; then
    _lg_psql -d postgres -c "CREATE DATABASE $LG_PG_DB" || return 1
  fi
  _lg_q -- "
    SET client_min_messages = warning;
    DROP TABLE IF EXISTS accounts, inventory;
    CREATE TABLE accounts (id int PRIMARY KEY, owner text NOT NULL, balance numeric NOT NULL);
    INSERT INTO accounts SELECT g, 'customer ' || g, 1000 FROM generate_series(1, 20) g;
    CREATE TABLE inventory (sku int PRIMARY KEY, name text NOT NULL, qty int NOT NULL);
    INSERT INTO inventory SELECT g, 'item ' || g, 1000000 FROM generate_series(1, 100) g;
  " || return 1
}

# ---- session plumbing ---------------------------------------------------------------

# _lg_open NAME APPNAME : start a psql session fed through a fifo; record its backend pid.
_lg_open() {
  local name=$1 app=$2 fifo fd pid i bpid
  fifo="$LG_WORKDIR/$name.in"
  rm -f "$fifo" && mkfifo "$fifo" || return 1
  # The child must not inherit the write ends of the other sessions' fifos, or their
  # psql would never see EOF.
  (
    for fd in "${_LG_FD[@]}"; do exec {fd}>&-; done
    PGAPPNAME=$app exec "$(_lg_bindir)/psql" -X -q -h 127.0.0.1 -p "$LG_PG_PORT" \
      -U postgres -d "$LG_PG_DB" <"$fifo" >"$LG_WORKDIR/$name.out" 2>&1
  ) &
  pid=$!
  exec {fd}>"$fifo"
  _LG_FD[$name]=$fd; _LG_PSQL_PID[$name]=$pid; _LG_APP[$name]=$app; _LG_LAST[$name]=""
  _LG_SESSIONS+=("$name")
  for ((i = 0; i < LG_POLL_TIMEOUT * 20; i++)); do
    bpid=$(_lg_q -v app="$app" -- "select pid from pg_stat_activity where application_name = :'app'")
    if [ -n "$bpid" ] && [ "$(echo "$bpid" | wc -l)" -eq 1 ]; then
      _LG_BACKEND[$name]=$bpid
      return 0
    fi
    sleep 0.05
  done
  _lg_err "session $name ($app) did not connect"; return 1
}

# Number of `still waiting` lines the session's backend has logged so far (needs LG_LOGDIR).
_lg_waits_logged() {
  local pid=${_LG_BACKEND[$1]} n
  n=$(grep -c -- "LOG:  process $pid still waiting for " "$LG_LOGDIR/postgresql.log" 2>/dev/null) || true
  echo "${n:-0}"
}

# _lg_send NAME SQL : send one statement (must end with ';') to a session.
_lg_send() {
  _LG_LAST[$1]=$2
  if [ -n "${LG_LOGDIR:-}" ]; then _LG_WAITS[$1]=$(_lg_waits_logged "$1"); fi
  printf '%s\n' "$2" >&"${_LG_FD[$1]}"
}

# _lg_wait_done NAME : until the session's last statement has finished (state idle*).
_lg_wait_done() {
  local name=$1 i r
  for ((i = 0; i < LG_POLL_TIMEOUT * 20; i++)); do
    r=$(_lg_q -v pid="${_LG_BACKEND[$name]}" -v q="${_LG_LAST[$name]}" -- "
      select state from pg_stat_activity
       where pid = :pid and state like 'idle%' and query = :'q'")
    if [ -n "$r" ]; then return 0; fi
    sleep 0.05
  done
  _lg_err "session $name did not finish: ${_LG_LAST[$name]}"; return 1
}

# _lg_wait_lock NAME MIN_MS : until the session has waited on a lock for at least MIN_MS
# and (when LG_LOGDIR is set) the server has logged its `still waiting` line, i.e. the
# backend has run its deadlock check for this wait. That check runs once per wait, so a
# cycle closed afterwards is found by the process that closes it.
_lg_wait_lock() {
  local name=$1 ms=$2 i r
  for ((i = 0; i < LG_POLL_TIMEOUT * 20; i++)); do
    r=$(_lg_q -v pid="${_LG_BACKEND[$name]}" -v ms="$ms" -- "
      select 1 from pg_locks
       where pid = :pid and not granted and waitstart is not null
         and waitstart < clock_timestamp() - make_interval(secs => :ms / 1000.0)
       limit 1")
    if [ -n "$r" ]; then break; fi
    sleep 0.05
  done
  if [ -z "$r" ]; then
    _lg_err "session $name is not waiting on a lock: ${_LG_LAST[$name]}"; return 1
  fi
  [ -n "${LG_LOGDIR:-}" ] || return 0
  for ((i = 0; i < LG_POLL_TIMEOUT * 20; i++)); do
    [ "$(_lg_waits_logged "$name")" -gt "${_LG_WAITS[$name]:-0}" ] && return 0
    sleep 0.05
  done
  _lg_err "session $name: no 'still waiting' line in $LG_LOGDIR/postgresql.log"; return 1
}

# _lg_step NAME SQL : send and wait until finished.
_lg_step() { _lg_send "$1" "$2" && _lg_wait_done "$1"; }

# _lg_output_has NAME TEXT : the session's psql output mentions TEXT.
_lg_output_has() { grep -qF -- "$2" "$LG_WORKDIR/$1.out"; }

# Close every open session: EOF on the fifo ends psql; then wait for the backend to go.
_lg_close_all() {
  local name pid i fd bpids=""
  for name in "${_LG_SESSIONS[@]}"; do
    fd=${_LG_FD[$name]}
    exec {fd}>&-
  done
  for name in "${_LG_SESSIONS[@]}"; do
    pid=${_LG_PSQL_PID[$name]}
    for ((i = 0; i < 200; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.05
    done
    if kill -0 "$pid" 2>/dev/null; then
      _lg_err "psql for session $name did not exit; killing pid $pid"
      kill "$pid" 2>/dev/null
    fi
    wait "$pid" 2>/dev/null || true
    [ -n "${_LG_BACKEND[$name]:-}" ] && bpids+="${bpids:+,}${_LG_BACKEND[$name]}"
  done
  if [ -n "$bpids" ]; then
    for ((i = 0; i < 200; i++)); do
      [ "$(_lg_q -- "select count(*) from pg_stat_activity where pid in ($bpids)")" = 0 ] && break
      sleep 0.05
    done
  fi
  _LG_SESSIONS=()
  _LG_FD=() _LG_PSQL_PID=() _LG_BACKEND=() _LG_LAST=() _LG_APP=() _LG_WAITS=()
}

# _lg_run NAME BODY : run a scenario body, always closing its sessions afterwards.
_lg_run() {
  local scen=$1 body=$2 rc
  [ -n "${LG_WORKDIR:-}" ] || { _lg_err "call lg_setup first"; return 1; }
  _LG_SESSIONS=()
  # (an && list: a failing step must reach _lg_close_all even under `set -e`)
  "$body" && rc=0 || rc=$?
  _lg_close_all
  if [ $rc -ne 0 ]; then
    _lg_err "scenario_$scen FAILED (session outputs in $LG_WORKDIR)"
  fi
  return $rc
}

_lg_record() {  # _lg_record SCENARIO KEY=PID ...
  local scen=$1 kv line="scenario_$1:"
  shift
  for kv in "$@"; do
    LG_PIDS[$scen.${kv%%=*}]=${kv#*=}
    line+=" $kv"
  done
  echo "$line"
}

# ---- scenarios ------------------------------------------------------------------------

# Two sessions update two accounts in opposite order: one 2-process deadlock on
# transaction locks. A waits first (and has run its deadlock check), so B is the victim.
scenario_two_way() { _lg_run two_way _lg_two_way; }
_lg_two_way() {
  _lg_open A lg_two_way_A && _lg_open B lg_two_way_B || return 1
  _lg_step A "BEGIN;" && _lg_step B "BEGIN;" || return 1
  _lg_step A "UPDATE accounts SET balance = balance - 10 WHERE id = 1;" || return 1
  _lg_step B "UPDATE accounts SET balance = balance - 20 WHERE id = 2;" || return 1
  _lg_send A "UPDATE accounts SET balance = balance + 10 WHERE id = 2;"
  _lg_wait_lock A 300 || return 1
  _lg_send B "UPDATE accounts SET balance = balance + 20 WHERE id = 1;"
  _lg_wait_done B && _lg_wait_done A || return 1
  _lg_output_has B "deadlock detected" || { _lg_err "two_way: B was not the victim"; return 1; }
  ! _lg_output_has A "deadlock detected" || { _lg_err "two_way: A also failed"; return 1; }
  _lg_step B "ROLLBACK;" && _lg_step A "COMMIT;" || return 1
  _lg_record two_way A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}" victim="${_LG_BACKEND[B]}"
}

# Three sessions, a 3-process cycle on transaction locks: A -> B -> C -> A.
# A and B wait first; C closes the cycle and is the victim.
scenario_three_way() { _lg_run three_way _lg_three_way; }
_lg_three_way() {
  local s
  for s in A B C; do _lg_open $s lg_three_way_$s || return 1; _lg_step $s "BEGIN;" || return 1; done
  _lg_step A "UPDATE accounts SET balance = balance - 1 WHERE id = 11;" || return 1
  _lg_step B "UPDATE accounts SET balance = balance - 1 WHERE id = 12;" || return 1
  _lg_step C "UPDATE accounts SET balance = balance - 1 WHERE id = 13;" || return 1
  _lg_send A "UPDATE accounts SET balance = balance + 1 WHERE id = 12;"
  _lg_wait_lock A 300 || return 1
  _lg_send B "UPDATE accounts SET balance = balance + 1 WHERE id = 13;"
  _lg_wait_lock B 300 || return 1
  _lg_send C "UPDATE accounts SET balance = balance + 1 WHERE id = 11;"
  # C's abort frees row 13 for B; A keeps waiting until B commits.
  _lg_wait_done C && _lg_wait_done B || return 1
  _lg_output_has C "deadlock detected" || { _lg_err "three_way: C was not the victim"; return 1; }
  _lg_step C "ROLLBACK;" && _lg_step B "COMMIT;" && _lg_wait_done A || return 1
  if _lg_output_has A "deadlock detected" || _lg_output_has B "deadlock detected"; then
    _lg_err "three_way: more than one victim"; return 1
  fi
  _lg_step A "COMMIT;" || return 1
  _lg_record three_way A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}" C="${_LG_BACKEND[C]}" \
    victim="${_LG_BACKEND[C]}"
}

# A updates a row and holds it ~1.5 s; B updates the same row, waits (`still waiting`),
# then gets it (`acquired`). No deadlock.
scenario_lock_wait() { _lg_run lock_wait _lg_lock_wait; }
_lg_lock_wait() {
  _lg_open A lg_lock_wait_A && _lg_open B lg_lock_wait_B || return 1
  _lg_step A "BEGIN;" || return 1
  _lg_step A "UPDATE accounts SET balance = balance + 5 WHERE id = 5;" || return 1
  _lg_send B "UPDATE accounts SET balance = balance - 5 WHERE id = 5;"
  _lg_wait_lock B 1500 || return 1
  _lg_step A "COMMIT;" || return 1
  _lg_wait_done B || return 1
  if _lg_output_has B "ERROR"; then _lg_err "lock_wait: B failed"; return 1; fi
  _lg_record lock_wait A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}"
}

# Same as lock_wait, but B has lock_timeout = 500ms: `canceling statement due to lock timeout`.
scenario_lock_timeout() { _lg_run lock_timeout _lg_lock_timeout; }
_lg_lock_timeout() {
  _lg_open A lg_lock_timeout_A && _lg_open B lg_lock_timeout_B || return 1
  _lg_step A "BEGIN;" || return 1
  _lg_step A "UPDATE accounts SET balance = balance + 7 WHERE id = 7;" || return 1
  _lg_step B "SET lock_timeout = '500ms';" || return 1
  _lg_send B "UPDATE accounts SET balance = balance - 7 WHERE id = 7;"
  _lg_wait_done B || return 1
  _lg_output_has B "canceling statement due to lock timeout" \
    || { _lg_err "lock_timeout: B did not time out"; return 1; }
  _lg_step A "COMMIT;" || return 1
  _lg_record lock_timeout A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}"
}

# Blocking chain without deadlock: A holds row 8; B holds row 9 and waits for row 8;
# C waits for row 9. Both waits are logged, then A commits, B gets row 8 and commits,
# C gets row 9. C's wait shows the chain C -> B -> A.
scenario_chain() { _lg_run chain _lg_chain; }
_lg_chain() {
  local s
  for s in A B C; do _lg_open $s lg_chain_$s || return 1; _lg_step $s "BEGIN;" || return 1; done
  _lg_step A "UPDATE accounts SET balance = balance + 1 WHERE id = 8;" || return 1
  _lg_step B "UPDATE accounts SET balance = balance + 1 WHERE id = 9;" || return 1
  _lg_send B "UPDATE accounts SET balance = balance - 1 WHERE id = 8;"
  _lg_wait_lock B 300 || return 1
  _lg_send C "UPDATE accounts SET balance = balance - 1 WHERE id = 9;"
  _lg_wait_lock C 300 || return 1
  sleep 0.3
  _lg_step A "COMMIT;" || return 1
  _lg_wait_done B || return 1
  _lg_step B "COMMIT;" || return 1
  _lg_wait_done C || return 1
  _lg_step C "COMMIT;" || return 1
  for s in A B C; do
    if _lg_output_has $s "ERROR"; then _lg_err "chain: session $s failed"; return 1; fi
  done
  _lg_record chain A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}" C="${_LG_BACKEND[C]}"
}

# Prints "total big_with_tuple" for checkout deadlocks in the csvlog: the number of
# `deadlock detected` records from application lg_checkout, and how many of those are
# cycles of >= 3 processes with at least one `ExclusiveLock on tuple` edge.
lg_checkout_stats() {
  python3 - "$1" <<'PY'
import csv, re, sys
csv.field_size_limit(1 << 30)
total = big = 0
try:
    with open(sys.argv[1], newline='') as f:
        for r in csv.reader(f):
            if len(r) < 23 or r[13] != 'deadlock detected' or r[22] != 'lg_checkout':
                continue
            total += 1
            edges = re.findall(r'^Process \d+ waits for (\S+) on (.+?); blocked by process \d+\.$',
                               r[14], re.M)
            if len(edges) >= 3 and any(m == 'ExclusiveLock' and t.startswith('tuple (')
                                       for m, t in edges):
                big += 1
except (OSError, csv.Error):
    pass
print(total, big)
PY
}

# Many concurrent checkouts (pgbench, 30 clients x 10 transactions, each updating 3-5
# of 100 inventory rows in random order). pgbench 15 counts a deadlock as a failed
# transaction and goes on (the client is not aborted), so one run yields a few dozen
# deadlocks, most of them cycles of 3+ processes with tuple-lock edges. Repeats (at most
# LG_CHECKOUT_ROUNDS times) until the csvlog holds a checkout cycle of >= 3 processes
# with an `ExclusiveLock on tuple` edge.
scenario_checkout() { _lg_run checkout _lg_checkout; }
_lg_checkout() {
  local clients=${LG_CHECKOUT_CLIENTS:-30} tx=${LG_CHECKOUT_TX:-10} skus=${LG_CHECKOUT_SKUS:-100}
  local rounds=${LG_CHECKOUT_ROUNDS:-10} round stats i out
  [ -n "${LG_LOGDIR:-}" ] || { _lg_err "checkout: LG_LOGDIR not set"; return 1; }
  cat >"$LG_WORKDIR/checkout.pgbench" <<'EOF'
\set n random(3, 5)
\set s1 random(1, :nskus)
\set s2 random(1, :nskus)
\set s3 random(1, :nskus)
\set s4 random(1, :nskus)
\set s5 random(1, :nskus)
BEGIN;
UPDATE inventory SET qty = qty - 1 WHERE sku = :s1;
UPDATE inventory SET qty = qty - 1 WHERE sku = :s2;
UPDATE inventory SET qty = qty - 1 WHERE sku = :s3;
\if :n >= 4
UPDATE inventory SET qty = qty - 1 WHERE sku = :s4;
\endif
\if :n >= 5
UPDATE inventory SET qty = qty - 1 WHERE sku = :s5;
\endif
END;
EOF
  for ((round = 1; round <= rounds; round++)); do
    out="$LG_WORKDIR/checkout.$round.out"
    PGAPPNAME=lg_checkout "$(_lg_bindir)/pgbench" -n -h 127.0.0.1 -p "$LG_PG_PORT" -U postgres \
      -c "$clients" -j 2 -t "$tx" -D nskus="$skus" -f "$LG_WORKDIR/checkout.pgbench" \
      "$LG_PG_DB" >"$out" 2>&1
    if ! grep -q "number of transactions actually processed" "$out"; then
      cat "$out" >&2; _lg_err "checkout: pgbench failed"; return 1
    fi
    echo "scenario_checkout: round $round: $(grep -E '^number of failed transactions' "$out" || echo 'no failures')"
    # The logging collector writes asynchronously; give it a moment to catch up.
    for ((i = 0; i < 20; i++)); do
      stats=$(lg_checkout_stats "$LG_LOGDIR/postgresql.csv")
      [ "${stats#* }" -gt 0 ] && break
      sleep 0.1
    done
    echo "scenario_checkout: checkout deadlocks so far: ${stats% *}, cycles of >= 3 with a tuple edge: ${stats#* }"
    if [ "${stats#* }" -gt 0 ]; then
      LG_PIDS[checkout.rounds]=$round
      return 0
    fi
  done
  _lg_err "checkout: no cycle of >= 3 processes with a tuple edge after $rounds rounds"
  return 1
}

# Prints a TCP port on 127.0.0.1 that nobody listens on (random in 54330-55329).
lg_free_port() {
  python3 - <<'PY'
import random, socket
for _ in range(200):
    port = random.randint(54330, 55329)
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port))
    except OSError:
        continue
    finally:
        s.close()
    print(port)
    break
PY
}

# All scenarios in the order make-samples.sh and tests/e2e/run.sh use.
lg_all_scenarios() {
  scenario_two_way && scenario_three_way && scenario_lock_wait && scenario_lock_timeout \
    && scenario_chain && scenario_checkout
}
