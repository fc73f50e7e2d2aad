# shellcheck shell=bash
# Live lock situations for `lockgraph watch` and pg_locks snapshots: each scenario
# builds a state that persists (blocked sessions keep waiting), calls a callback while
# it holds, then tears the sessions down. Source scripts/scenarios.sh first (session
# plumbing, LG_PG_PORT, LG_PG_DB), then this file; call lg_setup and lgw_setup once.
#
#   lgw_hold SCENARIO CALLBACK [ARGS...]
#       builds SCENARIO (chain, idle_blocker, advisory_cycle, ddl_queue or all), runs
#       `CALLBACK ARGS...` while the sessions wait, then terminates the scenario's
#       backends. Returns CALLBACK's status (or 1 when the state could not be built).
#
# Backend pids are recorded in LG_PIDS as in scenarios.sh ("chain.A", ...); the
# transaction ids of the holders in LG_PIDS too ("chain.A.xid"), and the OID of the
# watch_ddl table in LG_PIDS[ddl_queue.relation], so that checks can name every edge.
# Blocked sessions wait with deadlock_timeout = 60s (a superuser setting, per session):
# the server's deadlock detector does not break the advisory cycle while it is watched.
# LG_LOGDIR is ignored here: a 60 s deadlock_timeout means no `still waiting` line.

# Tables of the scenarios that scenarios.sh does not create.
lgw_setup() {
  _lg_q -- "
    SET client_min_messages = warning;
    DROP TABLE IF EXISTS watch_ddl;
    CREATE TABLE watch_ddl (id int PRIMARY KEY, note text);
    INSERT INTO watch_ddl SELECT g, 'row ' || g FROM generate_series(1, 10) g;
  " || return 1
  LG_PIDS[ddl_queue.relation]=$(_lg_q -- "select 'watch_ddl'::regclass::oid")
  LG_PIDS[database]=$(_lg_q -- "select oid from pg_database where datname = current_database()")
}

# _lgw_open NAME APP : a session whose lock waits stay out of the deadlock detector's way.
_lgw_open() {
  _lg_open "$1" "$2" && _lg_step "$1" "SET deadlock_timeout = '60s';"
}

# _lgw_wait_lock NAME : until the session waits on a lock (no log line needed).
_lgw_wait_lock() { LG_LOGDIR="" _lg_wait_lock "$1" 200; }

# _lgw_xid NAME : the top-level xid of the session's open transaction.
_lgw_xid() {
  _lg_q -v pid="${_LG_BACKEND[$1]}" -- "select backend_xid from pg_stat_activity where pid = :pid"
}

# _lgw_wait_state NAME STATE : until pg_stat_activity shows STATE for the session.
_lgw_wait_state() {
  local i r
  for ((i = 0; i < LG_POLL_TIMEOUT * 20; i++)); do
    r=$(_lg_q -v pid="${_LG_BACKEND[$1]}" -v s="$2" -- "
      select 1 from pg_stat_activity where pid = :pid and state = :'s'")
    [ -n "$r" ] && return 0
    sleep 0.05
  done
  _lg_err "session $1 never reached state '$2'"; return 1
}

# Chain: A holds account 8 and runs a long statement (state active); B holds account 9
# and waits for 8 (ShareLock on A's xid); C waits for 9 (ShareLock on B's xid).
_lgw_chain() {
  local s
  for s in A B C; do _lgw_open $s lg_watch_chain_$s && _lg_step $s "BEGIN;" || return 1; done
  _lg_step A "UPDATE accounts SET balance = balance + 1 WHERE id = 8;" || return 1
  _lg_step B "UPDATE accounts SET balance = balance + 1 WHERE id = 9;" || return 1
  LG_PIDS[chain.A.xid]=$(_lgw_xid A); LG_PIDS[chain.B.xid]=$(_lgw_xid B)
  _lg_send A "SELECT pg_sleep(600);"
  _lgw_wait_state A active || return 1
  _lg_send B "UPDATE accounts SET balance = balance - 1 WHERE id = 8;"
  _lgw_wait_lock B || return 1
  _lg_send C "UPDATE accounts SET balance = balance - 1 WHERE id = 9;"
  _lgw_wait_lock C || return 1
  _lg_record chain A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}" C="${_LG_BACKEND[C]}"
}

# Idle-in-transaction blocker: D updates inventory sku 1 and goes idle in its open
# transaction; E updates the same row and waits (ShareLock on D's xid).
_lgw_idle_blocker() {
  _lgw_open D lg_watch_idle_D && _lgw_open E lg_watch_idle_E || return 1
  _lg_step D "BEGIN;" && _lg_step D "UPDATE inventory SET qty = qty - 1 WHERE sku = 1;" || return 1
  LG_PIDS[idle_blocker.D.xid]=$(_lgw_xid D)
  _lg_send E "UPDATE inventory SET qty = qty - 2 WHERE sku = 1;"
  _lgw_wait_lock E || return 1
  _lg_record idle_blocker D="${_LG_BACKEND[D]}" E="${_LG_BACKEND[E]}"
}

# Advisory-lock cycle: F holds session advisory lock 101 and wants 102; G holds 102 and
# wants 101 (ExclusiveLock on both). With deadlock_timeout = 60s the cycle persists.
_lgw_advisory_cycle() {
  _lgw_open F lg_watch_adv_F && _lgw_open G lg_watch_adv_G || return 1
  _lg_step F "SELECT pg_advisory_lock(101);" && _lg_step G "SELECT pg_advisory_lock(102);" \
    || return 1
  _lg_send F "SELECT pg_advisory_lock(102);"
  _lgw_wait_lock F || return 1
  _lg_send G "SELECT pg_advisory_lock(101);"
  _lgw_wait_lock G || return 1
  _lg_record advisory_cycle F="${_LG_BACKEND[F]}" G="${_LG_BACKEND[G]}"
}

# DDL queued behind a long transaction: H read watch_ddl in a transaction that still
# runs (AccessShareLock held); I's ALTER TABLE waits for AccessExclusiveLock (blocked
# by H, hard); J's SELECT then queues behind I (AccessShareLock, blocked by I, soft).
_lgw_ddl_queue() {
  local s
  for s in H I J; do _lgw_open $s lg_watch_ddl_$s || return 1; done
  _lg_step H "BEGIN;" && _lg_step H "SELECT count(*) FROM watch_ddl;" || return 1
  _lg_send H "SELECT pg_sleep(600);"
  _lgw_wait_state H active || return 1
  _lg_send I "ALTER TABLE watch_ddl ADD COLUMN added int;"
  _lgw_wait_lock I || return 1
  _lg_send J "SELECT count(*) FROM watch_ddl;"
  _lgw_wait_lock J || return 1
  _lg_record ddl_queue H="${_LG_BACKEND[H]}" I="${_LG_BACKEND[I]}" J="${_LG_BACKEND[J]}"
}

_lgw_all() { _lgw_chain && _lgw_idle_blocker && _lgw_advisory_cycle && _lgw_ddl_queue; }

# Terminates every backend of the open sessions (pg_sleep and lock waits do not end
# on EOF), so that _lg_close_all finds psql gone and the backends leaving.
_lgw_terminate_all() {
  local name pids=""
  for name in "${_LG_SESSIONS[@]}"; do
    [ -n "${_LG_BACKEND[$name]:-}" ] && pids+="${pids:+,}${_LG_BACKEND[$name]}"
  done
  [ -z "$pids" ] || _lg_q -- "select count(pg_terminate_backend(pid)) from pg_stat_activity
                              where pid in ($pids)" >/dev/null
}

lgw_hold() {
  local scen=$1 rc
  shift
  [ -n "${LG_WORKDIR:-}" ] || { _lg_err "call lg_setup first"; return 1; }
  case "$scen" in
    chain|idle_blocker|advisory_cycle|ddl_queue|all) ;;
    *) _lg_err "lgw_hold: unknown scenario $scen"; return 1 ;;
  esac
  _LG_SESSIONS=()
  if "_lgw_$scen"; then
    "$@" && rc=0 || rc=$?
  else
    _lg_err "watch scenario $scen could not be built (session outputs in $LG_WORKDIR)"
    rc=1
  fi
  _lgw_terminate_all
  _lg_close_all
  return $rc
}
