// Excerpts of samples/postgresql/rules-lessons.log (scripts/make-rule-samples-lessons.sh,
// scenarios of scripts/rule-scenarios-lessons.sh, PostgreSQL 15.18), copied line for line
// for the PG016 and PG017 tests (tests/unit/test_rules_lessons.cc).
#pragma once

namespace lockgraph::excerpts {

// Scenario rerun (lines 11-20): B (23013) inserts the invoices A (22999) inserted and
// has not committed; it waits for A's transaction, A commits, B fails with 23505.
inline constexpr const char* kRerun = R"(2026-12-03 15:55:16.687 UTC [23013] postgres@lockgraph/lg_l_rerun_B LOG:  process 23013 still waiting for ShareLock on transaction 732 after 105.371 ms
2026-12-03 15:55:16.687 UTC [23013] postgres@lockgraph/lg_l_rerun_B DETAIL:  Process holding the lock: 22999. Wait queue: 23013.
2026-12-03 15:55:16.687 UTC [23013] postgres@lockgraph/lg_l_rerun_B CONTEXT:  while inserting index tuple (0,6) in relation "invoices_customer_id_period_key"
2026-12-03 15:55:16.687 UTC [23013] postgres@lockgraph/lg_l_rerun_B STATEMENT:  INSERT INTO invoices (customer_id, period, amount) SELECT g, '2026-11', 10 * g FROM generate_series(1, 5) g;
2026-12-03 15:55:17.111 UTC [23013] postgres@lockgraph/lg_l_rerun_B LOG:  process 23013 acquired ShareLock on transaction 732 after 529.129 ms
2026-12-03 15:55:17.111 UTC [23013] postgres@lockgraph/lg_l_rerun_B CONTEXT:  while inserting index tuple (0,6) in relation "invoices_customer_id_period_key"
2026-12-03 15:55:17.111 UTC [23013] postgres@lockgraph/lg_l_rerun_B STATEMENT:  INSERT INTO invoices (customer_id, period, amount) SELECT g, '2026-11', 10 * g FROM generate_series(1, 5) g;
2026-12-03 15:55:17.111 UTC [23013] postgres@lockgraph/lg_l_rerun_B ERROR:  duplicate key value violates unique constraint "invoices_customer_id_period_key"
2026-12-03 15:55:17.111 UTC [23013] postgres@lockgraph/lg_l_rerun_B DETAIL:  Key (customer_id, period)=(1, 2026-11) already exists.
2026-12-03 15:55:17.111 UTC [23013] postgres@lockgraph/lg_l_rerun_B STATEMENT:  INSERT INTO invoices (customer_id, period, amount) SELECT g, '2026-11', 10 * g FROM generate_series(1, 5) g;
)";

// Scenario queue (lines 21-37): A (23105) holds job 1; B (23128), C (23152) and D
// (23175) run the same SELECT ... LIMIT 1 FOR UPDATE and wait; A commits, their waits end.
inline constexpr const char* kQueue = R"(2026-12-03 15:55:20.559 UTC [23128] postgres@lockgraph/lg_l_queue_B LOG:  process 23128 still waiting for ShareLock on transaction 734 after 100.094 ms
2026-12-03 15:55:20.559 UTC [23128] postgres@lockgraph/lg_l_queue_B DETAIL:  Process holding the lock: 23105. Wait queue: 23128.
2026-12-03 15:55:20.559 UTC [23128] postgres@lockgraph/lg_l_queue_B CONTEXT:  while locking tuple (0,1) in relation "jobs"
2026-12-03 15:55:20.559 UTC [23128] postgres@lockgraph/lg_l_queue_B STATEMENT:  SELECT id, payload FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE;
2026-12-03 15:55:21.212 UTC [23152] postgres@lockgraph/lg_l_queue_C LOG:  process 23152 still waiting for AccessExclusiveLock on tuple (0,1) of relation 16411 of database 16384 after 100.081 ms
2026-12-03 15:55:21.212 UTC [23152] postgres@lockgraph/lg_l_queue_C DETAIL:  Process holding the lock: 23128. Wait queue: 23152.
2026-12-03 15:55:21.212 UTC [23152] postgres@lockgraph/lg_l_queue_C STATEMENT:  SELECT id, payload FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE;
2026-12-03 15:55:21.663 UTC [23175] postgres@lockgraph/lg_l_queue_D LOG:  process 23175 still waiting for AccessExclusiveLock on tuple (0,1) of relation 16411 of database 16384 after 103.001 ms
2026-12-03 15:55:21.663 UTC [23175] postgres@lockgraph/lg_l_queue_D DETAIL:  Process holding the lock: 23128. Wait queue: 23152, 23175.
2026-12-03 15:55:21.663 UTC [23175] postgres@lockgraph/lg_l_queue_D STATEMENT:  SELECT id, payload FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE;
2026-12-03 15:55:22.386 UTC [23128] postgres@lockgraph/lg_l_queue_B LOG:  process 23128 acquired ShareLock on transaction 734 after 1926.361 ms
2026-12-03 15:55:22.386 UTC [23128] postgres@lockgraph/lg_l_queue_B CONTEXT:  while locking tuple (0,1) in relation "jobs"
2026-12-03 15:55:22.386 UTC [23128] postgres@lockgraph/lg_l_queue_B STATEMENT:  SELECT id, payload FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE;
2026-12-03 15:55:22.386 UTC [23152] postgres@lockgraph/lg_l_queue_C LOG:  process 23152 acquired AccessExclusiveLock on tuple (0,1) of relation 16411 of database 16384 after 1274.359 ms
2026-12-03 15:55:22.386 UTC [23152] postgres@lockgraph/lg_l_queue_C STATEMENT:  SELECT id, payload FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE;
2026-12-03 15:55:22.386 UTC [23175] postgres@lockgraph/lg_l_queue_D LOG:  process 23175 acquired AccessExclusiveLock on tuple (0,1) of relation 16411 of database 16384 after 825.479 ms
2026-12-03 15:55:22.386 UTC [23175] postgres@lockgraph/lg_l_queue_D STATEMENT:  SELECT id, payload FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE;
)";

}  // namespace lockgraph::excerpts
