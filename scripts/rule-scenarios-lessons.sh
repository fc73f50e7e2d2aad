# shellcheck shell=bash
# Scenarios for the design notes' lessons as rules (issue 16 item 6, docs/rules/PG015.md,
# PG016.md, PG017.md): an idle session holding a session-level advisory lock that another
# waits for, a job run twice at once stopped by a UNIQUE key (23505), workers of a queue
# table waiting for the same row. Source scripts/scenarios.sh first (session plumbing:
# _lg_open, _lg_step, _lg_send, _lg_wait_lock, _lg_wait_done, _lg_run, _lg_record), then
# call lg_lessons_rule_setup once and lg_all_lessons_rule_scenarios.
# Application names are lg_l_<scenario>_<session>.
#
#   LG_SNAPSHOT_DIR  when set, the scenarios that hold locks save a pg_locks snapshot
#                    (docs/snapshot.sql through psql --csv) there, as <scenario>.csv,
#                    while they hold.

lg_lessons_rule_setup() {
  _lg_q -- "
    SET client_min_messages = warning;
    DROP TABLE IF EXISTS invoices, jobs;
    CREATE TABLE invoices (id serial PRIMARY KEY, customer_id int NOT NULL, period text NOT NULL,
                           amount numeric NOT NULL,
                           CONSTRAINT invoices_customer_id_period_key UNIQUE (customer_id, period));
    CREATE TABLE jobs (id serial PRIMARY KEY, status text NOT NULL DEFAULT 'queued',
                       payload text NOT NULL);
    INSERT INTO jobs (payload) SELECT 'job ' || g FROM generate_series(1, 10) g;
  "
}

# _lg_lessons_snapshot NAME : saves docs/snapshot.sql's output as $LG_SNAPSHOT_DIR/NAME.csv.
_lg_lessons_snapshot() {
  [ -n "${LG_SNAPSHOT_DIR:-}" ] || return 0
  local root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  mkdir -p "$LG_SNAPSHOT_DIR"
  "$(_lg_bindir)/psql" -X -q --csv -h 127.0.0.1 -p "$LG_PG_PORT" -U postgres -d "$LG_PG_DB" \
    -f "$root/docs/snapshot.sql" >"$LG_SNAPSHOT_DIR/$1.csv"
}

# _lg_wait_idle NAME : until the session is idle (no transaction) after its last statement.
_lg_wait_idle() {
  local name=$1 i r
  for ((i = 0; i < LG_POLL_TIMEOUT * 20; i++)); do
    r=$(_lg_q -v pid="${_LG_BACKEND[$name]}" -- "
      select 1 from pg_stat_activity where pid = :pid and state = 'idle'")
    [ -n "$r" ] && return 0
    sleep 0.05
  done
  _lg_err "session $name is not idle"; return 1
}

# PG015: A takes session-level advisory lock 4242 outside any transaction and stays idle
# (what a transaction-mode pooler leaves behind: the lock stays on the server connection
# while the client's later statements, its unlock too, may run on another); B asks for
# the same lock and waits. Snapshot while it waits; then A unlocks and B gets it.
scenario_lessons_pooled_advisory() { _lg_run l_pooled_advisory _lg_l_pooled_advisory; }
_lg_l_pooled_advisory() {
  _lg_open A lg_l_pooled_advisory_A && _lg_open B lg_l_pooled_advisory_B || return 1
  _lg_step A "SELECT pg_advisory_lock(4242);" && _lg_wait_idle A || return 1
  _lg_send B "SELECT pg_advisory_lock(4242);"
  _lg_wait_lock B 300 || return 1
  sleep 1  # the ages in the snapshot: A idle for more than a second
  _lg_lessons_snapshot pooled_advisory || return 1
  _lg_step A "SELECT pg_advisory_unlock(4242);" && _lg_wait_done B || return 1
  _lg_step B "SELECT pg_advisory_unlock(4242);" || return 1
  _lg_record l_pooled_advisory A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}"
}

# PG016: a billing job run twice at once (a re-run started while the first run was still
# in its transaction): A inserts the November invoices of customers 1-5 and has not
# committed; B inserts the same rows and waits for A's transaction on the first key; A
# commits; B fails with 23505 on (customer_id, period)=(1, 2026-11).
scenario_lessons_rerun() { _lg_run l_rerun _lg_l_rerun; }
_lg_l_rerun() {
  local insert="INSERT INTO invoices (customer_id, period, amount) SELECT g, '2026-11', 10 * g FROM generate_series(1, 5) g;"
  _lg_open A lg_l_rerun_A && _lg_open B lg_l_rerun_B || return 1
  _lg_step A "BEGIN;" && _lg_step B "BEGIN;" || return 1
  _lg_step A "$insert" || return 1
  _lg_send B "$insert"
  _lg_wait_lock B 300 || return 1
  _lg_step A "COMMIT;" && _lg_wait_done B || return 1
  _lg_output_has B "duplicate key value violates unique constraint" ||
    { _lg_err "rerun: B did not fail with 23505"; return 1; }
  _lg_step B "ROLLBACK;" || return 1
  _lg_record l_rerun A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}"
}

# _lg_l_commit_in_turn SESSION... : commits each session as soon as its statement has
# finished (idle in transaction), in whatever order the server lets them finish.
_lg_l_commit_in_turn() {
  local left=("$@") next s r i
  for ((i = 0; i < LG_POLL_TIMEOUT * 20 && ${#left[@]} > 0; i++)); do
    next=()
    for s in "${left[@]}"; do
      r=$(_lg_q -v pid="${_LG_BACKEND[$s]}" -- "
        select 1 from pg_stat_activity where pid = :pid and state = 'idle in transaction'")
      if [ -n "$r" ]; then _lg_step "$s" "COMMIT;" || return 1; else next+=("$s"); fi
    done
    left=("${next[@]}")
    [ ${#left[@]} -eq 0 ] || sleep 0.05
  done
  [ ${#left[@]} -eq 0 ] || { _lg_err "queue: ${left[*]} never got its job"; return 1; }
}

# PG017: four workers take the next job of the queue table the same way, FOR UPDATE
# without SKIP LOCKED. A holds job 1; B waits for A's transaction, C and D for the row's
# tuple lock behind B. Snapshot while they wait; then A marks job 1 done and commits, and
# B, C and D (which re-read job 1, find it done, and lock the next one, waiting again for
# each other) commit as soon as each has its row.
scenario_lessons_queue() { _lg_run l_queue _lg_l_queue; }
_lg_l_queue() {
  local take="SELECT id, payload FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE;"
  local s
  for s in A B C D; do _lg_open $s lg_l_queue_$s && _lg_step $s "BEGIN;" || return 1; done
  _lg_step A "$take" || return 1
  for s in B C D; do _lg_send $s "$take" && _lg_wait_lock $s 300 || return 1; done
  _lg_lessons_snapshot queue || return 1
  _lg_step A "UPDATE jobs SET status = 'done' WHERE id = 1;" && _lg_step A "COMMIT;" || return 1
  _lg_l_commit_in_turn B C D || return 1
  _lg_record l_queue A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}" C="${_LG_BACKEND[C]}" \
    D="${_LG_BACKEND[D]}"
}

lg_all_lessons_rule_scenarios() {
  scenario_lessons_pooled_advisory && scenario_lessons_rerun && scenario_lessons_queue
}
