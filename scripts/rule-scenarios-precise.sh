# shellcheck shell=bash
# Scenarios for the precision cases of issue 16 (docs/rules/PG00*.md): string keys,
# mixed lock modes, CREATE INDEX CONCURRENTLY, advisory locks mixed with row locks, a
# deadlock at COMMIT. Source scripts/scenarios.sh and scripts/rule-scenarios.sh first
# (this file reuses _lg_rule_pair and the session plumbing), then call
# lg_precise_rule_setup once and lg_all_precise_rule_scenarios.
# Application names are lg_p_<scenario>_<session>.

# Tables of these scenarios (accounts, audit and settings come from the rule setup).
lg_precise_rule_setup() {
  _lg_q -- "
    SET client_min_messages = warning;
    DROP TABLE IF EXISTS slots;
    CREATE TABLE slots (k int, CONSTRAINT slots_k_key UNIQUE (k) DEFERRABLE INITIALLY DEFERRED);
  "
}

# _lg_precise_pair SCEN A1 B1 A2 B2 : _lg_rule_pair with lg_p_ application names.
_lg_precise_pair() { LG_PAIR_PREFIX=p _lg_rule_pair "$@"; }

# PG002: the ids sent as text ('9', '10'), B in the order of a text sort.
scenario_precise_text_order_strings() { _lg_run p_text_order_strings _lg_p_text_order_strings; }
_lg_p_text_order_strings() {
  _lg_precise_pair text_order_strings \
    "SELECT id FROM accounts WHERE id = '9' FOR UPDATE;" \
    "SELECT id FROM accounts WHERE id = '10' FOR UPDATE;" \
    "SELECT id FROM accounts WHERE id = '10' FOR UPDATE;" \
    "SELECT id FROM accounts WHERE id = '9' FOR UPDATE;"
}

# PG004, two modes: both LOCK TABLE audit IN SHARE MODE; A then inserts (RowExclusiveLock),
# B asks for EXCLUSIVE MODE (ExclusiveLock); victim B.
scenario_precise_upgrade_mixed() { _lg_run p_upgrade_mixed _lg_p_upgrade_mixed; }
_lg_p_upgrade_mixed() {
  _lg_precise_pair upgrade_mixed \
    "LOCK TABLE audit IN SHARE MODE;" \
    "LOCK TABLE audit IN SHARE MODE;" \
    "INSERT INTO audit VALUES (3, 'c');" \
    "LOCK TABLE audit IN EXCLUSIVE MODE;"
}

# PG006, CREATE INDEX CONCURRENTLY: A updates a settings row in an open transaction; B's
# CIC holds ShareUpdateExclusiveLock on settings and waits for A's virtual transaction;
# A then asks for SHARE MODE on settings and closes the cycle: victim A.
scenario_precise_cic() { _lg_run p_cic _lg_p_cic; }
_lg_p_cic() {
  _lg_open A lg_p_cic_A && _lg_open B lg_p_cic_B || return 1
  _lg_step A "BEGIN;" && _lg_step A "UPDATE settings SET v = v + 1 WHERE k = 3;" || return 1
  _lg_send B "CREATE INDEX CONCURRENTLY settings_v_idx ON settings (v);"
  _lg_wait_lock B 300 || return 1
  _lg_send A "LOCK TABLE settings IN SHARE MODE;"
  _lg_wait_done A || return 1
  _lg_output_has A "deadlock detected" || { _lg_err "cic: A was not the victim"; return 1; }
  _lg_step A "ROLLBACK;" && _lg_wait_done B || return 1
  _lg_record p_cic A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}" victim="${_LG_BACKEND[A]}"
}

# PG007, advisory lock and row lock in one cycle: A takes advisory lock 301 then wants
# account 5; B updates account 5 then wants advisory lock 301: victim B.
scenario_precise_advisory_mixed() { _lg_run p_advisory_mixed _lg_p_advisory_mixed; }
_lg_p_advisory_mixed() {
  _lg_precise_pair advisory_mixed \
    "SELECT pg_advisory_xact_lock(301);" \
    "UPDATE accounts SET balance = balance + 1 WHERE id = 5;" \
    "UPDATE accounts SET balance = balance + 1 WHERE id = 5;" \
    "SELECT pg_advisory_xact_lock(301);"
}

# A deadlock at COMMIT: slots.k is UNIQUE DEFERRABLE INITIALLY DEFERRED. A inserts 1 then
# 2, B inserts 2 then 1 (no wait: the check is deferred); A's COMMIT checks 2 and waits for
# B; B's COMMIT checks 1 and closes the cycle: victim B.
scenario_precise_commit_unique() { _lg_run p_commit_unique _lg_p_commit_unique; }
_lg_p_commit_unique() {
  _lg_open A lg_p_commit_unique_A && _lg_open B lg_p_commit_unique_B || return 1
  _lg_step A "BEGIN;" && _lg_step B "BEGIN;" || return 1
  _lg_step A "INSERT INTO slots VALUES (1);" && _lg_step B "INSERT INTO slots VALUES (2);" || return 1
  _lg_step A "INSERT INTO slots VALUES (2);" && _lg_step B "INSERT INTO slots VALUES (1);" || return 1
  _lg_send A "COMMIT;"
  _lg_wait_lock A 300 || return 1
  _lg_send B "COMMIT;"
  _lg_wait_done B && _lg_wait_done A || return 1
  _lg_output_has B "deadlock detected" || { _lg_err "commit_unique: B was not the victim"; return 1; }
  _lg_record p_commit_unique A="${_LG_BACKEND[A]}" B="${_LG_BACKEND[B]}" victim="${_LG_BACKEND[B]}"
}

lg_all_precise_rule_scenarios() {
  scenario_precise_text_order_strings && scenario_precise_upgrade_mixed && scenario_precise_cic \
    && scenario_precise_advisory_mixed && scenario_precise_commit_unique
}
