// Excerpts of samples/postgresql/rules-lessons.log (scripts/make-rule-samples-lessons.sh,
// scenarios of scripts/rule-scenarios-lessons.sh, PostgreSQL 15.18), copied line for line
// for the PG016 and PG017 tests (tests/unit/test_rules_lessons.cc).
#pragma once

namespace lockgraph::excerpts {

// Scenario rerun (lines 11-20): B (24656) inserts the invoices A (24641) inserted and
// has not committed; it waits for A's transaction, A commits, B fails with 23505.
inline constexpr const char* kRerun = R"(2026-12-03 16:52:39.623 UTC [24656] postgres@lockgraph/lg_l_rerun_B LOG:  process 24656 still waiting for ShareLock on transaction 732 after 100.110 ms
2026-12-03 16:52:39.623 UTC [24656] postgres@lockgraph/lg_l_rerun_B DETAIL:  Process holding the lock: 24641. Wait queue: 24656.
2026-12-03 16:52:39.623 UTC [24656] postgres@lockgraph/lg_l_rerun_B CONTEXT:  while inserting index tuple (0,6) in relation "invoices_customer_id_period_key"
2026-12-03 16:52:39.623 UTC [24656] postgres@lockgraph/lg_l_rerun_B STATEMENT:  INSERT INTO invoices (customer_id, period, amount) SELECT g, '2026-11', 10 * g FROM generate_series(1, 5) g;
2026-12-03 16:52:39.877 UTC [24656] postgres@lockgraph/lg_l_rerun_B LOG:  process 24656 acquired ShareLock on transaction 732 after 354.950 ms
2026-12-03 16:52:39.877 UTC [24656] postgres@lockgraph/lg_l_rerun_B CONTEXT:  while inserting index tuple (0,6) in relation "invoices_customer_id_period_key"
2026-12-03 16:52:39.877 UTC [24656] postgres@lockgraph/lg_l_rerun_B STATEMENT:  INSERT INTO invoices (customer_id, period, amount) SELECT g, '2026-11', 10 * g FROM generate_series(1, 5) g;
2026-12-03 16:52:39.878 UTC [24656] postgres@lockgraph/lg_l_rerun_B ERROR:  duplicate key value violates unique constraint "invoices_customer_id_period_key"
2026-12-03 16:52:39.878 UTC [24656] postgres@lockgraph/lg_l_rerun_B DETAIL:  Key (customer_id, period)=(1, 2026-11) already exists.
2026-12-03 16:52:39.878 UTC [24656] postgres@lockgraph/lg_l_rerun_B STATEMENT:  INSERT INTO invoices (customer_id, period, amount) SELECT g, '2026-11', 10 * g FROM generate_series(1, 5) g;
)";

// Scenario queue (lines 21-37): A (24770) holds job 1; B (24796), C (24819) and D
// (24843) run the same SELECT ... LIMIT 1 FOR UPDATE and wait; A commits, their waits end.
inline constexpr const char* kQueue = R"(2026-12-03 16:52:40.652 UTC [24796] postgres@lockgraph/lg_l_queue_B LOG:  process 24796 still waiting for ShareLock on transaction 734 after 100.088 ms
2026-12-03 16:52:40.652 UTC [24796] postgres@lockgraph/lg_l_queue_B DETAIL:  Process holding the lock: 24770. Wait queue: 24796.
2026-12-03 16:52:40.652 UTC [24796] postgres@lockgraph/lg_l_queue_B CONTEXT:  while locking tuple (0,1) in relation "jobs"
2026-12-03 16:52:40.652 UTC [24796] postgres@lockgraph/lg_l_queue_B STATEMENT:  SELECT id, payload FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE;
2026-12-03 16:52:41.022 UTC [24819] postgres@lockgraph/lg_l_queue_C LOG:  process 24819 still waiting for AccessExclusiveLock on tuple (0,1) of relation 16411 of database 16384 after 100.860 ms
2026-12-03 16:52:41.022 UTC [24819] postgres@lockgraph/lg_l_queue_C DETAIL:  Process holding the lock: 24796. Wait queue: 24819.
2026-12-03 16:52:41.022 UTC [24819] postgres@lockgraph/lg_l_queue_C STATEMENT:  SELECT id, payload FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE;
2026-12-03 16:52:41.343 UTC [24843] postgres@lockgraph/lg_l_queue_D LOG:  process 24843 still waiting for AccessExclusiveLock on tuple (0,1) of relation 16411 of database 16384 after 104.513 ms
2026-12-03 16:52:41.343 UTC [24843] postgres@lockgraph/lg_l_queue_D DETAIL:  Process holding the lock: 24796. Wait queue: 24819, 24843.
2026-12-03 16:52:41.343 UTC [24843] postgres@lockgraph/lg_l_queue_D STATEMENT:  SELECT id, payload FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE;
2026-12-03 16:52:41.760 UTC [24796] postgres@lockgraph/lg_l_queue_B LOG:  process 24796 acquired ShareLock on transaction 734 after 1208.095 ms
2026-12-03 16:52:41.760 UTC [24796] postgres@lockgraph/lg_l_queue_B CONTEXT:  while locking tuple (0,1) in relation "jobs"
2026-12-03 16:52:41.760 UTC [24796] postgres@lockgraph/lg_l_queue_B STATEMENT:  SELECT id, payload FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE;
2026-12-03 16:52:41.760 UTC [24819] postgres@lockgraph/lg_l_queue_C LOG:  process 24819 acquired AccessExclusiveLock on tuple (0,1) of relation 16411 of database 16384 after 839.106 ms
2026-12-03 16:52:41.760 UTC [24819] postgres@lockgraph/lg_l_queue_C STATEMENT:  SELECT id, payload FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE;
2026-12-03 16:52:41.760 UTC [24843] postgres@lockgraph/lg_l_queue_D LOG:  process 24843 acquired AccessExclusiveLock on tuple (0,1) of relation 16411 of database 16384 after 521.480 ms
2026-12-03 16:52:41.760 UTC [24843] postgres@lockgraph/lg_l_queue_D STATEMENT:  SELECT id, payload FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE;
)";

}  // namespace lockgraph::excerpts
