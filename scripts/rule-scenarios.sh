# shellcheck shell=bash
# Scenarios that make each lockgraph rule fire (docs/rules/PG*.md), against a running
# PostgreSQL cluster. Source scripts/scenarios.sh first (this file reuses its session
# plumbing: _lg_open, _lg_step, _lg_send, _lg_wait_lock, _lg_wait_done, _lg_run,
# _lg_record), then call lg_rule_setup once and any scenario_rule_* function.
#
# Every scenario forces its interleaving the way scripts/scenarios.sh does (one statement
# at a time, waiting for each lock wait to be logged), so the cycle and its victim do not
# depend on timing luck; only scenario_rule_retry_storm (pgbench) is left to the scheduler.
# Application names are lg_r_<scenario>_<session> so that tests can find each deadlock.

# Tables of the rule scenarios (accounts comes from lg_setup).
lg_rule_setup() {
  _lg_q -- "
    SET client_min_messages = warning;
    DROP TABLE IF EXISTS stock, ledger, audit, order_lines, orders, settings, counters;
    CREATE TABLE stock (sku int PRIMARY KEY, qty int NOT NULL);
    INSERT INTO stock SELECT g, 100 FROM generate_series(1, 20) g;
    CREATE TABLE ledger (id int PRIMARY KEY, total numeric NOT NULL);
    INSERT INTO ledger SELECT g, 0 FROM generate_series(1, 20) g;
    CREATE TABLE audit (id int, note text);
    CREATE TABLE orders (id int PRIMARY KEY, status text NOT NULL);
    INSERT INTO orders SELECT g, 'open' FROM generate_series(1, 20) g;
    CREATE TABLE order_lines (id serial PRIMARY KEY,
                              order_id int NOT NULL REFERENCES orders (id), sku int NOT NULL);
    CREATE TABLE settings (k int PRIMARY KEY, v int NOT NULL);
    INSERT INTO settings SELECT g, 0 FROM generate_series(1, 20) g;
    CREATE TABLE counters (id int PRIMARY KEY, n bigint NOT NULL);
    INSERT INTO counters SELECT g, 0 FROM generate_series(1, 20) g;
    CREATE OR REPLACE FUNCTION transfer(p_from int, p_to int, p_pause float8)
    RETURNS void LANGUAGE plpgsql AS \$fn\$
    BEGIN
      UPDATE accounts SET balance = balance - 1 WHERE id = p_from;
      PERFORM pg_sleep(p_pause);
      UPDATE accounts SET balance = balance + 1 WHERE id = p_to;
    END
    \$fn\$;
  "
}

# _lg_r_wait_done NAME : like _lg_wait_done, but also accepts the statement clipped at
# track_activity_query_size in pg_stat_activity (scenario_rule_clipped).
_lg_r_wait_done() {
  local name=$1 i r
  for ((i = 0; i < LG_POLL_TIMEOUT * 20; i++)); do
    r=$(_lg_q -v pid="${_LG_BACKEND[$name]}" -v q="${_LG_LAST[$name]}" -- "
      select state from pg_stat_activity
       where pid = :pid and state like 'idle%'
         and (query = :'q' or (length(query) >= 1000 and left(:'q', length(query)) = query))")
    if [ -n "$r" ]; then return 0; fi
    sleep 0.05
  done
  _lg_err "session $name did not finish: ${_LG_LAST[$name]}"; return 1
}
_lg_r_step() { _lg_send "$1" "$2" && _lg_r_wait_done "$1"; }

# _lg_rule_pair SCEN A1 B1 A2 B2 : the generic 2-process cycle. A runs A1, B runs B1,
# A runs A2 (and waits, its wait logged), B runs B2 and closes the cycle: B is the victim.
# Sessions are named lg_r_SCEN_A/B and recorded as r_SCEN (LG_PAIR_PREFIX=p: lg_p_, p_).
_lg_rule_pair() {
  local scen=$1 pre=${LG_PAIR_PREFIX:-r}
  _lg_open A "lg_${pre}_${scen}_A" && _lg_open B "lg_${pre}_${scen}_B" || return 1
  _lg_step A "BEGIN;" && _lg_step B "BEGIN;" || return 1
  _lg_r_step A "$2" && _lg_r_step B "$3" || return 1
  _lg_send A "$4"
  _lg_wait_lock A 300 || return 1
  _lg_send B "$5"
  _lg_r_wait_done B && _lg_r_wait_done A || return 1
  _lg_output_has B "deadlock detected" || { _lg_err "$scen: B was not the victim"; return 1; }
  _lg_step B "ROLLBACK;" && _lg_step A "COMMIT;" || return 1
  _lg_record "${pre}_$scen" A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}" victim="${_LG_BACKEND[B]}"
}

# PG001: the same UPDATE, rows 3 and 4 taken in opposite orders.
scenario_rule_row_order() { _lg_run r_row_order _lg_r_row_order; }
_lg_r_row_order() {
  _lg_rule_pair row_order \
    "UPDATE accounts SET balance = balance - 30 WHERE id = 3;" \
    "UPDATE accounts SET balance = balance - 40 WHERE id = 4;" \
    "UPDATE accounts SET balance = balance - 30 WHERE id = 4;" \
    "UPDATE accounts SET balance = balance - 40 WHERE id = 3;"
}

# PG002: A locks ids 9 then 10 (numeric order), B locks '10' then '9' (the order of a
# text sort, e.g. JavaScript's default [10, 9].sort()).
scenario_rule_text_order() { _lg_run r_text_order _lg_r_text_order; }
_lg_r_text_order() {
  _lg_rule_pair text_order \
    "SELECT id FROM accounts WHERE id = 9 FOR UPDATE;" \
    "SELECT id FROM accounts WHERE id = 10 FOR UPDATE;" \
    "SELECT id FROM accounts WHERE id = 10 FOR UPDATE;" \
    "SELECT id FROM accounts WHERE id = 9 FOR UPDATE;"
}

# PG003: A goes stock then ledger, B goes ledger then stock.
scenario_rule_table_order() { _lg_run r_table_order _lg_r_table_order; }
_lg_r_table_order() {
  _lg_rule_pair table_order \
    "UPDATE stock SET qty = qty - 1 WHERE sku = 1;" \
    "UPDATE ledger SET total = total + 1 WHERE id = 1;" \
    "UPDATE ledger SET total = total + 1 WHERE id = 1;" \
    "UPDATE stock SET qty = qty - 1 WHERE sku = 1;"
}

# PG004, rows: both read account 15 FOR SHARE, then both update it.
scenario_rule_upgrade_row() { _lg_run r_upgrade_row _lg_r_upgrade_row; }
_lg_r_upgrade_row() {
  _lg_rule_pair upgrade_row \
    "SELECT balance FROM accounts WHERE id = 15 FOR SHARE;" \
    "SELECT balance FROM accounts WHERE id = 15 FOR SHARE;" \
    "UPDATE accounts SET balance = balance + 1 WHERE id = 15;" \
    "UPDATE accounts SET balance = balance + 1 WHERE id = 15;"
}

# PG004, relation: both LOCK TABLE audit IN SHARE MODE, then both insert into it.
scenario_rule_upgrade_table() { _lg_run r_upgrade_table _lg_r_upgrade_table; }
_lg_r_upgrade_table() {
  _lg_rule_pair upgrade_table \
    "LOCK TABLE audit IN SHARE MODE;" \
    "LOCK TABLE audit IN SHARE MODE;" \
    "INSERT INTO audit VALUES (1, 'a');" \
    "INSERT INTO audit VALUES (2, 'b');"
}

# PG005: A adds a line to order 1 (the foreign key takes FOR KEY SHARE on orders row 1);
# B locks order 2, then order 1 FOR UPDATE and waits for A; A adds a line to order 2,
# whose foreign-key check waits for B: A is the victim, its CONTEXT shows the RI query.
scenario_rule_fk() { _lg_run r_fk _lg_r_fk; }
_lg_r_fk() {
  _lg_open A lg_r_fk_A && _lg_open B lg_r_fk_B || return 1
  _lg_step A "BEGIN;" && _lg_step B "BEGIN;" || return 1
  _lg_step A "INSERT INTO order_lines (order_id, sku) VALUES (1, 7);" || return 1
  _lg_step B "SELECT status FROM orders WHERE id = 2 FOR UPDATE;" || return 1
  _lg_send B "SELECT status FROM orders WHERE id = 1 FOR UPDATE;"
  _lg_wait_lock B 300 || return 1
  _lg_send A "INSERT INTO order_lines (order_id, sku) VALUES (2, 8);"
  _lg_wait_done A && _lg_wait_done B || return 1
  _lg_output_has A "deadlock detected" || { _lg_err "fk: A was not the victim"; return 1; }
  _lg_step A "ROLLBACK;" && _lg_step B "COMMIT;" || return 1
  _lg_record r_fk A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}" victim="${_LG_BACKEND[A]}"
}

# PG005, the other way round: the same steps, but B's FOR UPDATE closes the cycle, so B is
# the victim and A, the INSERT waiting in its foreign-key check, is not (no CONTEXT for A).
scenario_rule_fk_parent() { _lg_run r_fk_parent _lg_r_fk_parent; }
_lg_r_fk_parent() {
  _lg_open A lg_r_fk_parent_A && _lg_open B lg_r_fk_parent_B || return 1
  _lg_step A "BEGIN;" && _lg_step B "BEGIN;" || return 1
  _lg_step A "INSERT INTO order_lines (order_id, sku) VALUES (3, 7);" || return 1
  _lg_step B "SELECT status FROM orders WHERE id = 4 FOR UPDATE;" || return 1
  _lg_send A "INSERT INTO order_lines (order_id, sku) VALUES (4, 8);"
  _lg_wait_lock A 300 || return 1
  _lg_send B "SELECT status FROM orders WHERE id = 3 FOR UPDATE;"
  _lg_wait_done B && _lg_wait_done A || return 1
  _lg_output_has B "deadlock detected" || { _lg_err "fk_parent: B was not the victim"; return 1; }
  _lg_step B "ROLLBACK;" && _lg_step A "COMMIT;" || return 1
  _lg_record r_fk_parent A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}" victim="${_LG_BACKEND[B]}"
}

# PG007, transaction-level advisory locks 101 and 102 in opposite orders.
scenario_rule_advisory_xact() { _lg_run r_advisory_xact _lg_r_advisory_xact; }
_lg_r_advisory_xact() {
  _lg_rule_pair advisory_xact \
    "SELECT pg_advisory_xact_lock(101);" \
    "SELECT pg_advisory_xact_lock(102);" \
    "SELECT pg_advisory_xact_lock(102);" \
    "SELECT pg_advisory_xact_lock(101);"
}

# PG007, session-level advisory locks (int4 pair keys) in opposite orders, no transaction.
scenario_rule_advisory_session() { _lg_run r_advisory_session _lg_r_advisory_session; }
_lg_r_advisory_session() {
  _lg_open A lg_r_advisory_session_A && _lg_open B lg_r_advisory_session_B || return 1
  _lg_step A "SELECT pg_advisory_lock(7, 201);" && _lg_step B "SELECT pg_advisory_lock(7, 202);" \
    || return 1
  _lg_send A "SELECT pg_advisory_lock(7, 202);"
  _lg_wait_lock A 300 || return 1
  _lg_send B "SELECT pg_advisory_lock(7, 201);"
  _lg_wait_done B || return 1
  _lg_output_has B "deadlock detected" || { _lg_err "advisory_session: B was not the victim"; return 1; }
  # The error does not release B's session-level lock on (7, 202): A waits until B
  # unlocks it (the very trap of session-level advisory locks).
  _lg_step B "SELECT pg_advisory_unlock_all();" && _lg_wait_done A || return 1
  _lg_step A "SELECT pg_advisory_unlock_all();" || return 1
  _lg_record r_advisory_session A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}" \
    victim="${_LG_BACKEND[B]}"
}

# PG006 + PG010, no deadlock: A reads settings in a long transaction; B's ALTER TABLE
# waits for AccessExclusiveLock; C's UPDATE and D's SELECT queue behind the ALTER. A
# commits after ~1.5 s, then everyone proceeds.
scenario_rule_ddl_queue() { _lg_run r_ddl_queue _lg_r_ddl_queue; }
_lg_r_ddl_queue() {
  local s
  for s in A B C D; do _lg_open $s "lg_r_ddl_queue_$s" || return 1; done
  _lg_step A "BEGIN;" && _lg_step A "SELECT count(*) FROM settings;" || return 1
  _lg_send B "ALTER TABLE settings ADD COLUMN note text;"
  _lg_wait_lock B 300 || return 1
  _lg_send C "UPDATE settings SET v = v + 1 WHERE k = 1;"
  _lg_wait_lock C 300 || return 1
  _lg_send D "SELECT v FROM settings WHERE k = 2;"
  _lg_wait_lock D 1200 || return 1
  _lg_step A "COMMIT;" || return 1
  _lg_wait_done B && _lg_wait_done C && _lg_wait_done D || return 1
  for s in B C D; do
    if _lg_output_has $s "ERROR"; then _lg_err "ddl_queue: session $s failed"; return 1; fi
  done
  _lg_record r_ddl_queue A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}" C="${_LG_BACKEND[C]}" \
    D="${_LG_BACKEND[D]}"
}

# PG006, deadlock: A updates a settings row; B updates a ledger row, then runs ALTER TABLE
# settings and waits behind A; A then wants B's ledger row: A is the victim, the cycle has
# an AccessExclusiveLock edge.
scenario_rule_ddl_deadlock() { _lg_run r_ddl_deadlock _lg_r_ddl_deadlock; }
_lg_r_ddl_deadlock() {
  _lg_open A lg_r_ddl_deadlock_A && _lg_open B lg_r_ddl_deadlock_B || return 1
  _lg_step A "BEGIN;" && _lg_step B "BEGIN;" || return 1
  _lg_step A "UPDATE settings SET v = v + 1 WHERE k = 2;" || return 1
  _lg_step B "UPDATE ledger SET total = total + 5 WHERE id = 2;" || return 1
  _lg_send B "ALTER TABLE settings ADD COLUMN note2 text;"
  _lg_wait_lock B 300 || return 1
  _lg_send A "UPDATE ledger SET total = total - 5 WHERE id = 2;"
  _lg_wait_done A && _lg_wait_done B || return 1
  _lg_output_has A "deadlock detected" || { _lg_err "ddl_deadlock: A was not the victim"; return 1; }
  _lg_step A "ROLLBACK;" && _lg_step B "COMMIT;" || return 1
  _lg_record r_ddl_deadlock A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}" victim="${_LG_BACKEND[A]}"
}

# PG008: transfer(18, 19) and transfer(19, 18) inside a PL/pgSQL function. A pauses 2 s
# between its two updates; B (pause 0.2 s) locks 19 and waits for 18; A wakes, wants 19
# and closes the cycle: A is the victim, its CONTEXT names the function and line.
scenario_rule_function() { _lg_run r_function _lg_r_function; }
_lg_r_function() {
  _lg_open A lg_r_function_A && _lg_open B lg_r_function_B || return 1
  _lg_send A "SELECT transfer(18, 19, 2.0);"
  sleep 0.3
  _lg_send B "SELECT transfer(19, 18, 0.2);"
  _lg_wait_lock B 300 || return 1
  _lg_wait_done A && _lg_wait_done B || return 1
  _lg_output_has A "deadlock detected" || { _lg_err "function: A was not the victim"; return 1; }
  _lg_record r_function A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}" victim="${_LG_BACKEND[A]}"
}

# PG011 (clipped queries): opposite row order with statements longer than
# track_activity_query_size (1024), so the DETAIL shows them cut.
scenario_rule_clipped() { _lg_run r_clipped _lg_r_clipped; }
_lg_r_clipped() {
  local pad
  pad="/* $(printf 'padding %.0s' $(seq 1 140)) */"
  _lg_rule_pair clipped \
    "UPDATE stock SET qty = qty + 2 WHERE sku = 5 $pad;" \
    "UPDATE stock SET qty = qty + 2 WHERE sku = 6 $pad;" \
    "UPDATE stock SET qty = qty + 2 WHERE sku = 6 $pad;" \
    "UPDATE stock SET qty = qty + 2 WHERE sku = 5 $pad;"
}

# PG009: pgbench, 4 clients, two scripts updating counters 1 and 2 in opposite orders
# with a short pause between, --max-tries=50: pgbench retries every deadlock at once,
# without backoff, so the same pair deadlocks again and again within seconds. Repeats
# (at most 5 runs) until the csvlog holds at least 5 deadlocks of lg_r_retry.
scenario_rule_retry_storm() { _lg_run r_retry_storm _lg_r_retry_storm; }
_lg_r_retry_storm() {
  local run out n=0
  [ -n "${LG_LOGDIR:-}" ] || { _lg_err "retry_storm: LG_LOGDIR not set"; return 1; }
  cat >"$LG_WORKDIR/retry_ab.pgbench" <<'EOF'
BEGIN;
UPDATE counters SET n = n + 1 WHERE id = 1;
SELECT pg_sleep(0.05);
UPDATE counters SET n = n + 1 WHERE id = 2;
END;
EOF
  cat >"$LG_WORKDIR/retry_ba.pgbench" <<'EOF'
BEGIN;
UPDATE counters SET n = n + 1 WHERE id = 2;
SELECT pg_sleep(0.05);
UPDATE counters SET n = n + 1 WHERE id = 1;
END;
EOF
  for ((run = 1; run <= 5; run++)); do
    out="$LG_WORKDIR/retry.$run.out"
    PGAPPNAME=lg_r_retry "$(_lg_bindir)/pgbench" -n -h 127.0.0.1 -p "$LG_PG_PORT" -U postgres \
      -c 4 -j 2 -t 5 --max-tries=50 -f "$LG_WORKDIR/retry_ab.pgbench@1" \
      -f "$LG_WORKDIR/retry_ba.pgbench@1" "$LG_PG_DB" >"$out" 2>&1
    if ! grep -q "number of transactions actually processed" "$out"; then
      cat "$out" >&2; _lg_err "retry_storm: pgbench failed"; return 1
    fi
    sleep 0.3
    n=$(grep -c 'lg_r_retry ERROR:  deadlock detected' "$LG_LOGDIR/postgresql.log" || true)
    echo "scenario_rule_retry_storm: run $run: $(grep -E '^number of (retried|failed)' "$out" | tr '\n' ' ')deadlocks so far: $n"
    [ "$n" -ge 5 ] && { LG_PIDS[r_retry.deadlocks]=$n; return 0; }
  done
  _lg_err "retry_storm: only $n deadlocks after 5 runs"; return 1
}

# Deadlocks of two shapes for the grouping test: N times the 2-process accounts cycle
# (different rows each time), M times a 3-process stock cycle. Pids, xids, keys, amounts
# and times differ; the shapes do not.
lg_rule_two_shapes() {
  local n=${1:-6} m=${2:-4} i
  for ((i = 0; i < n; i++)); do
    scenario_rule_shape_pair "$i" || return 1
  done
  for ((i = 0; i < m; i++)); do
    scenario_rule_shape_ring "$i" || return 1
  done
}
scenario_rule_shape_pair() { _LG_SHAPE_I=$1; _lg_run r_shape_pair _lg_r_shape_pair; }
_lg_r_shape_pair() {
  local a=$((1 + _LG_SHAPE_I * 2)) b=$((2 + _LG_SHAPE_I * 2)) amt=$((10 + _LG_SHAPE_I))
  _lg_rule_pair shape_pair \
    "UPDATE accounts SET balance = balance - $amt WHERE id = $a;" \
    "UPDATE accounts SET balance = balance - $((amt + 1)) WHERE id = $b;" \
    "UPDATE accounts SET balance = balance - $amt WHERE id = $b;" \
    "UPDATE accounts SET balance = balance - $((amt + 1)) WHERE id = $a;"
}
scenario_rule_shape_ring() { _LG_SHAPE_I=$1; _lg_run r_shape_ring _lg_r_shape_ring; }
_lg_r_shape_ring() {
  local s base=$((1 + _LG_SHAPE_I * 3))
  for s in A B C; do
    _lg_open $s "lg_r_shape_ring_$s" || return 1; _lg_step $s "BEGIN;" || return 1
  done
  _lg_step A "UPDATE stock SET qty = qty - 1 WHERE sku = $base;" || return 1
  _lg_step B "UPDATE stock SET qty = qty - 1 WHERE sku = $((base + 1));" || return 1
  _lg_step C "UPDATE stock SET qty = qty - 1 WHERE sku = $((base + 2));" || return 1
  _lg_send A "UPDATE stock SET qty = qty - 1 WHERE sku = $((base + 1));"
  _lg_wait_lock A 300 || return 1
  _lg_send B "UPDATE stock SET qty = qty - 1 WHERE sku = $((base + 2));"
  _lg_wait_lock B 300 || return 1
  _lg_send C "UPDATE stock SET qty = qty - 1 WHERE sku = $base;"
  _lg_wait_done C && _lg_wait_done B || return 1
  _lg_output_has C "deadlock detected" || { _lg_err "shape_ring: C was not the victim"; return 1; }
  _lg_step C "ROLLBACK;" && _lg_step B "COMMIT;" && _lg_wait_done A && _lg_step A "COMMIT;" \
    || return 1
  _lg_record r_shape_ring A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}" C="${_LG_BACKEND[C]}" \
    victim="${_LG_BACKEND[C]}"
}

# Every rule scenario, in the order scripts/make-rule-samples.sh runs them.
lg_all_rule_scenarios() {
  scenario_rule_row_order && scenario_rule_text_order && scenario_rule_table_order \
    && scenario_rule_upgrade_row && scenario_rule_upgrade_table && scenario_rule_fk \
    && scenario_rule_fk_parent \
    && scenario_rule_advisory_xact && scenario_rule_advisory_session \
    && scenario_rule_ddl_queue && scenario_rule_ddl_deadlock && scenario_rule_function \
    && scenario_rule_clipped && scenario_rule_retry_storm
}
