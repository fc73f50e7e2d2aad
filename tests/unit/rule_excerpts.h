// Real PostgreSQL 15 log excerpts for the rule tests, copied from
// samples/postgresql/rules.log (scripts/rule-scenarios.sh made them; the
// scenario table is in samples/postgresql/rules-README.md). Each rule's test
// uses some as the case that fires and others as cases that must stay silent.
#pragma once

namespace lockgraph::excerpts {

// PG001: the same UPDATE of accounts 3 and 4 in opposite orders; victim 9658
inline constexpr const char* kRowOrder =
    "2026-12-02 11:26:15.084 UTC [9658] postgres@lockgraph/lg_r_row_order_B ERROR:  deadlock detected\n"
    "2026-12-02 11:26:15.084 UTC [9658] postgres@lockgraph/lg_r_row_order_B DETAIL:  Process 9658 waits for ShareLock on transaction 742; blocked by process 9627.\n"
    "\tProcess 9627 waits for ShareLock on transaction 743; blocked by process 9658.\n"
    "\tProcess 9658: UPDATE accounts SET balance = balance - 40 WHERE id = 3;\n"
    "\tProcess 9627: UPDATE accounts SET balance = balance - 30 WHERE id = 4;\n"
    "2026-12-02 11:26:15.084 UTC [9658] postgres@lockgraph/lg_r_row_order_B HINT:  See server log for query details.\n"
    "2026-12-02 11:26:15.084 UTC [9658] postgres@lockgraph/lg_r_row_order_B CONTEXT:  while updating tuple (0,3) in relation \"accounts\"\n"
    "2026-12-02 11:26:15.084 UTC [9658] postgres@lockgraph/lg_r_row_order_B STATEMENT:  UPDATE accounts SET balance = balance - 40 WHERE id = 3;\n";

// PG002: 9809 locks 9 then 10, 9828 locks 10 then 9; victim 9828
inline constexpr const char* kTextOrder =
    "2026-12-02 11:26:16.484 UTC [9828] postgres@lockgraph/lg_r_text_order_B ERROR:  deadlock detected\n"
    "2026-12-02 11:26:16.484 UTC [9828] postgres@lockgraph/lg_r_text_order_B DETAIL:  Process 9828 waits for ShareLock on transaction 744; blocked by process 9809.\n"
    "\tProcess 9809 waits for ShareLock on transaction 745; blocked by process 9828.\n"
    "\tProcess 9828: SELECT id FROM accounts WHERE id = 9 FOR UPDATE;\n"
    "\tProcess 9809: SELECT id FROM accounts WHERE id = 10 FOR UPDATE;\n"
    "2026-12-02 11:26:16.484 UTC [9828] postgres@lockgraph/lg_r_text_order_B HINT:  See server log for query details.\n"
    "2026-12-02 11:26:16.484 UTC [9828] postgres@lockgraph/lg_r_text_order_B CONTEXT:  while locking tuple (0,9) in relation \"accounts\"\n"
    "2026-12-02 11:26:16.484 UTC [9828] postgres@lockgraph/lg_r_text_order_B STATEMENT:  SELECT id FROM accounts WHERE id = 9 FOR UPDATE;\n";

// PG003: 9959 updates stock then ledger, 9972 ledger then stock; victim 9972
inline constexpr const char* kTableOrder =
    "2026-12-02 11:26:17.708 UTC [9972] postgres@lockgraph/lg_r_table_order_B ERROR:  deadlock detected\n"
    "2026-12-02 11:26:17.708 UTC [9972] postgres@lockgraph/lg_r_table_order_B DETAIL:  Process 9972 waits for ShareLock on transaction 746; blocked by process 9959.\n"
    "\tProcess 9959 waits for ShareLock on transaction 747; blocked by process 9972.\n"
    "\tProcess 9972: UPDATE stock SET qty = qty - 1 WHERE sku = 1;\n"
    "\tProcess 9959: UPDATE ledger SET total = total + 1 WHERE id = 1;\n"
    "2026-12-02 11:26:17.708 UTC [9972] postgres@lockgraph/lg_r_table_order_B HINT:  See server log for query details.\n"
    "2026-12-02 11:26:17.708 UTC [9972] postgres@lockgraph/lg_r_table_order_B CONTEXT:  while updating tuple (0,1) in relation \"stock\"\n"
    "2026-12-02 11:26:17.708 UTC [9972] postgres@lockgraph/lg_r_table_order_B STATEMENT:  UPDATE stock SET qty = qty - 1 WHERE sku = 1;\n";

// PG004: both read account 15 FOR SHARE, then both update it; victim 10118
inline constexpr const char* kUpgradeRow =
    "2026-12-02 11:26:18.604 UTC [10118] postgres@lockgraph/lg_r_upgrade_row_B ERROR:  deadlock detected\n"
    "2026-12-02 11:26:18.604 UTC [10118] postgres@lockgraph/lg_r_upgrade_row_B DETAIL:  Process 10118 waits for ShareLock on transaction 748; blocked by process 10104.\n"
    "\tProcess 10104 waits for ShareLock on transaction 749; blocked by process 10118.\n"
    "\tProcess 10118: UPDATE accounts SET balance = balance + 1 WHERE id = 15;\n"
    "\tProcess 10104: UPDATE accounts SET balance = balance + 1 WHERE id = 15;\n"
    "2026-12-02 11:26:18.604 UTC [10118] postgres@lockgraph/lg_r_upgrade_row_B HINT:  See server log for query details.\n"
    "2026-12-02 11:26:18.604 UTC [10118] postgres@lockgraph/lg_r_upgrade_row_B CONTEXT:  while updating tuple (0,15) in relation \"accounts\"\n"
    "2026-12-02 11:26:18.604 UTC [10118] postgres@lockgraph/lg_r_upgrade_row_B STATEMENT:  UPDATE accounts SET balance = balance + 1 WHERE id = 15;\n";

// PG005: the victim 10400 inserts order_lines; its foreign-key check waits
inline constexpr const char* kForeignKey =
    "2026-12-02 11:26:20.934 UTC [10400] postgres@lockgraph/lg_r_fk_A ERROR:  deadlock detected\n"
    "2026-12-02 11:26:20.934 UTC [10400] postgres@lockgraph/lg_r_fk_A DETAIL:  Process 10400 waits for ShareLock on transaction 752; blocked by process 10411.\n"
    "\tProcess 10411 waits for ShareLock on transaction 751; blocked by process 10400.\n"
    "\tProcess 10400: INSERT INTO order_lines (order_id, sku) VALUES (2, 8);\n"
    "\tProcess 10411: SELECT status FROM orders WHERE id = 1 FOR UPDATE;\n"
    "2026-12-02 11:26:20.934 UTC [10400] postgres@lockgraph/lg_r_fk_A HINT:  See server log for query details.\n"
    "2026-12-02 11:26:20.934 UTC [10400] postgres@lockgraph/lg_r_fk_A CONTEXT:  while locking tuple (0,2) in relation \"orders\"\n"
    "\tSQL statement \"SELECT 1 FROM ONLY \"public\".\"orders\" x WHERE \"id\" OPERATOR(pg_catalog.=) $1 FOR KEY SHARE OF x\"\n"
    "2026-12-02 11:26:20.934 UTC [10400] postgres@lockgraph/lg_r_fk_A STATEMENT:  INSERT INTO order_lines (order_id, sku) VALUES (2, 8);\n";

// PG005: the victim 10569 locks orders FOR UPDATE; 10552 inserts order_lines
inline constexpr const char* kForeignKeyParentVictim =
    "2026-12-02 11:26:22.016 UTC [10569] postgres@lockgraph/lg_r_fk_parent_B ERROR:  deadlock detected\n"
    "2026-12-02 11:26:22.016 UTC [10569] postgres@lockgraph/lg_r_fk_parent_B DETAIL:  Process 10569 waits for ShareLock on transaction 753; blocked by process 10552.\n"
    "\tProcess 10552 waits for ShareLock on transaction 754; blocked by process 10569.\n"
    "\tProcess 10569: SELECT status FROM orders WHERE id = 3 FOR UPDATE;\n"
    "\tProcess 10552: INSERT INTO order_lines (order_id, sku) VALUES (4, 8);\n"
    "2026-12-02 11:26:22.016 UTC [10569] postgres@lockgraph/lg_r_fk_parent_B HINT:  See server log for query details.\n"
    "2026-12-02 11:26:22.016 UTC [10569] postgres@lockgraph/lg_r_fk_parent_B CONTEXT:  while locking tuple (0,3) in relation \"orders\"\n"
    "2026-12-02 11:26:22.016 UTC [10569] postgres@lockgraph/lg_r_fk_parent_B STATEMENT:  SELECT status FROM orders WHERE id = 3 FOR UPDATE;\n";

// PG007: pg_advisory_xact_lock(101)/(102) in opposite orders; victim 10723
inline constexpr const char* kAdvisoryXact =
    "2026-12-02 11:26:23.250 UTC [10723] postgres@lockgraph/lg_r_advisory_xact_B ERROR:  deadlock detected\n"
    "2026-12-02 11:26:23.250 UTC [10723] postgres@lockgraph/lg_r_advisory_xact_B DETAIL:  Process 10723 waits for ExclusiveLock on advisory lock [16384,0,101,1]; blocked by process 10707.\n"
    "\tProcess 10707 waits for ExclusiveLock on advisory lock [16384,0,102,1]; blocked by process 10723.\n"
    "\tProcess 10723: SELECT pg_advisory_xact_lock(101);\n"
    "\tProcess 10707: SELECT pg_advisory_xact_lock(102);\n"
    "2026-12-02 11:26:23.250 UTC [10723] postgres@lockgraph/lg_r_advisory_xact_B HINT:  See server log for query details.\n"
    "2026-12-02 11:26:23.250 UTC [10723] postgres@lockgraph/lg_r_advisory_xact_B STATEMENT:  SELECT pg_advisory_xact_lock(101);\n";

// PG007: pg_advisory_lock(7, 201)/(7, 202) in opposite orders; victim 10874
inline constexpr const char* kAdvisorySession =
    "2026-12-02 11:26:24.229 UTC [10874] postgres@lockgraph/lg_r_advisory_session_B ERROR:  deadlock detected\n"
    "2026-12-02 11:26:24.229 UTC [10874] postgres@lockgraph/lg_r_advisory_session_B DETAIL:  Process 10874 waits for ExclusiveLock on advisory lock [16384,7,201,2]; blocked by process 10860.\n"
    "\tProcess 10860 waits for ExclusiveLock on advisory lock [16384,7,202,2]; blocked by process 10874.\n"
    "\tProcess 10874: SELECT pg_advisory_lock(7, 201);\n"
    "\tProcess 10860: SELECT pg_advisory_lock(7, 202);\n"
    "2026-12-02 11:26:24.229 UTC [10874] postgres@lockgraph/lg_r_advisory_session_B HINT:  See server log for query details.\n"
    "2026-12-02 11:26:24.229 UTC [10874] postgres@lockgraph/lg_r_advisory_session_B STATEMENT:  SELECT pg_advisory_lock(7, 201);\n";

// PG006: 11348 runs ALTER TABLE settings inside a transaction holding a ledger row; victim 11328
inline constexpr const char* kDdlDeadlock =
    "2026-12-02 11:26:28.204 UTC [11328] postgres@lockgraph/lg_r_ddl_deadlock_A ERROR:  deadlock detected\n"
    "2026-12-02 11:26:28.204 UTC [11328] postgres@lockgraph/lg_r_ddl_deadlock_A DETAIL:  Process 11328 waits for ShareLock on transaction 758; blocked by process 11348.\n"
    "\tProcess 11348 waits for AccessExclusiveLock on relation 16435 of database 16384; blocked by process 11328.\n"
    "\tProcess 11328: UPDATE ledger SET total = total - 5 WHERE id = 2;\n"
    "\tProcess 11348: ALTER TABLE settings ADD COLUMN note2 text;\n"
    "2026-12-02 11:26:28.204 UTC [11328] postgres@lockgraph/lg_r_ddl_deadlock_A HINT:  See server log for query details.\n"
    "2026-12-02 11:26:28.204 UTC [11328] postgres@lockgraph/lg_r_ddl_deadlock_A CONTEXT:  while updating tuple (0,2) in relation \"ledger\"\n"
    "2026-12-02 11:26:28.204 UTC [11328] postgres@lockgraph/lg_r_ddl_deadlock_A STATEMENT:  UPDATE ledger SET total = total - 5 WHERE id = 2;\n";

// PG008: transfer(18, 19) and transfer(19, 18) in PL/pgSQL; victim 11483
inline constexpr const char* kFunction =
    "2026-12-02 11:26:30.656 UTC [11483] postgres@lockgraph/lg_r_function_A ERROR:  deadlock detected\n"
    "2026-12-02 11:26:30.656 UTC [11483] postgres@lockgraph/lg_r_function_A DETAIL:  Process 11483 waits for ShareLock on transaction 760; blocked by process 11507.\n"
    "\tProcess 11507 waits for ShareLock on transaction 759; blocked by process 11483.\n"
    "\tProcess 11483: SELECT transfer(18, 19, 2.0);\n"
    "\tProcess 11507: SELECT transfer(19, 18, 0.2);\n"
    "2026-12-02 11:26:30.656 UTC [11483] postgres@lockgraph/lg_r_function_A HINT:  See server log for query details.\n"
    "2026-12-02 11:26:30.656 UTC [11483] postgres@lockgraph/lg_r_function_A CONTEXT:  while updating tuple (0,19) in relation \"accounts\"\n"
    "\tSQL statement \"UPDATE accounts SET balance = balance + 1 WHERE id = p_to\"\n"
    "\tPL/pgSQL function transfer(integer,integer,double precision) line 5 at SQL statement\n"
    "2026-12-02 11:26:30.656 UTC [11483] postgres@lockgraph/lg_r_function_A STATEMENT:  SELECT transfer(18, 19, 2.0);\n";

// PG006, PG010: 10998 reads settings in an open transaction; 11021's ALTER TABLE
// waits, 11040's UPDATE and 11054's SELECT queue behind it (lock waits, no deadlock).
inline constexpr const char* kDdlQueue =
    "2026-12-02 11:26:25.157 UTC [11021] postgres@lockgraph/lg_r_ddl_queue_B LOG:  process 11021 still waiting for AccessExclusiveLock on relation 16435 of database 16384 after 100.145 ms\n"
    "2026-12-02 11:26:25.157 UTC [11021] postgres@lockgraph/lg_r_ddl_queue_B DETAIL:  Process holding the lock: 10998. Wait queue: 11021.\n"
    "2026-12-02 11:26:25.157 UTC [11021] postgres@lockgraph/lg_r_ddl_queue_B STATEMENT:  ALTER TABLE settings ADD COLUMN note text;\n"
    "2026-12-02 11:26:25.584 UTC [11040] postgres@lockgraph/lg_r_ddl_queue_C LOG:  process 11040 still waiting for RowExclusiveLock on relation 16435 of database 16384 after 100.238 ms at character 8\n"
    "2026-12-02 11:26:25.584 UTC [11040] postgres@lockgraph/lg_r_ddl_queue_C DETAIL:  Process holding the lock: 10998. Wait queue: 11021, 11040.\n"
    "2026-12-02 11:26:25.584 UTC [11040] postgres@lockgraph/lg_r_ddl_queue_C STATEMENT:  UPDATE settings SET v = v + 1 WHERE k = 1;\n"
    "2026-12-02 11:26:25.965 UTC [11054] postgres@lockgraph/lg_r_ddl_queue_D LOG:  process 11054 still waiting for AccessShareLock on relation 16435 of database 16384 after 100.266 ms at character 15\n"
    "2026-12-02 11:26:25.965 UTC [11054] postgres@lockgraph/lg_r_ddl_queue_D DETAIL:  Process holding the lock: 10998. Wait queue: 11021, 11040, 11054.\n"
    "2026-12-02 11:26:25.965 UTC [11054] postgres@lockgraph/lg_r_ddl_queue_D STATEMENT:  SELECT v FROM settings WHERE k = 2;\n"
    "2026-12-02 11:26:27.133 UTC [11021] postgres@lockgraph/lg_r_ddl_queue_B LOG:  process 11021 acquired AccessExclusiveLock on relation 16435 of database 16384 after 2077.015 ms\n"
    "2026-12-02 11:26:27.133 UTC [11021] postgres@lockgraph/lg_r_ddl_queue_B STATEMENT:  ALTER TABLE settings ADD COLUMN note text;\n"
    "2026-12-02 11:26:27.147 UTC [11054] postgres@lockgraph/lg_r_ddl_queue_D LOG:  process 11054 acquired AccessShareLock on relation 16435 of database 16384 after 1282.309 ms at character 15\n"
    "2026-12-02 11:26:27.147 UTC [11054] postgres@lockgraph/lg_r_ddl_queue_D STATEMENT:  SELECT v FROM settings WHERE k = 2;\n"
    "2026-12-02 11:26:27.147 UTC [11040] postgres@lockgraph/lg_r_ddl_queue_C LOG:  process 11040 acquired RowExclusiveLock on relation 16435 of database 16384 after 1663.174 ms at character 8\n"
    "2026-12-02 11:26:27.147 UTC [11040] postgres@lockgraph/lg_r_ddl_queue_C STATEMENT:  UPDATE settings SET v = v + 1 WHERE k = 1;\n";

// PG007: 10860 waits for the session-level advisory lock (7, 202) that the
// victim 10874 keeps after its deadlock error, until it unlocks.
inline constexpr const char* kAdvisorySessionWait =
    "2026-12-02 11:26:23.876 UTC [10860] postgres@lockgraph/lg_r_advisory_session_A LOG:  process 10860 still waiting for ExclusiveLock on advisory lock [16384,7,202,2] after 100.116 ms\n"
    "2026-12-02 11:26:23.876 UTC [10860] postgres@lockgraph/lg_r_advisory_session_A DETAIL:  Process holding the lock: 10874. Wait queue: 10860.\n"
    "2026-12-02 11:26:23.876 UTC [10860] postgres@lockgraph/lg_r_advisory_session_A STATEMENT:  SELECT pg_advisory_lock(7, 202);\n"
    "2026-12-02 11:26:24.287 UTC [10860] postgres@lockgraph/lg_r_advisory_session_A LOG:  process 10860 acquired ExclusiveLock on advisory lock [16384,7,202,2] after 510.509 ms\n"
    "2026-12-02 11:26:24.287 UTC [10860] postgres@lockgraph/lg_r_advisory_session_A STATEMENT:  SELECT pg_advisory_lock(7, 202);\n";

// The row_order scenario's other wait: 9627 waited 499 ms, then acquired.
inline constexpr const char* kRowOrderWait =
    "2026-12-02 11:26:14.752 UTC [9627] postgres@lockgraph/lg_r_row_order_A LOG:  process 9627 still waiting for ShareLock on transaction 743 after 100.130 ms\n"
    "2026-12-02 11:26:14.752 UTC [9627] postgres@lockgraph/lg_r_row_order_A DETAIL:  Process holding the lock: 9658. Wait queue: 9627.\n"
    "2026-12-02 11:26:14.752 UTC [9627] postgres@lockgraph/lg_r_row_order_A CONTEXT:  while updating tuple (0,4) in relation \"accounts\"\n"
    "2026-12-02 11:26:14.752 UTC [9627] postgres@lockgraph/lg_r_row_order_A STATEMENT:  UPDATE accounts SET balance = balance - 30 WHERE id = 4;\n"
    "2026-12-02 11:26:15.085 UTC [9627] postgres@lockgraph/lg_r_row_order_A LOG:  process 9627 acquired ShareLock on transaction 743 after 432.966 ms\n"
    "2026-12-02 11:26:15.085 UTC [9627] postgres@lockgraph/lg_r_row_order_A CONTEXT:  while updating tuple (0,4) in relation \"accounts\"\n"
    "2026-12-02 11:26:15.085 UTC [9627] postgres@lockgraph/lg_r_row_order_A STATEMENT:  UPDATE accounts SET balance = balance - 30 WHERE id = 4;\n";

// PG009: the first four deadlocks of the pgbench run that retries at once
// (--max-tries=50): counters 1 and 2 in opposite orders, 0.2 s apart.
inline constexpr const char* kRetryStorm =
    "2026-12-02 11:26:32.134 UTC [11953] postgres@lockgraph/lg_r_retry ERROR:  deadlock detected\n"
    "2026-12-02 11:26:32.134 UTC [11953] postgres@lockgraph/lg_r_retry DETAIL:  Process 11953 waits for ShareLock on transaction 765; blocked by process 11955.\n"
    "\tProcess 11955 waits for ExclusiveLock on tuple (0,2) of relation 16440 of database 16384; blocked by process 11954.\n"
    "\tProcess 11954 waits for ShareLock on transaction 763; blocked by process 11956.\n"
    "\tProcess 11956 waits for ExclusiveLock on tuple (0,1) of relation 16440 of database 16384; blocked by process 11953.\n"
    "\tProcess 11953: UPDATE counters SET n = n + 1 WHERE id = 1;\n"
    "\tProcess 11955: UPDATE counters SET n = n + 1 WHERE id = 2;\n"
    "\tProcess 11954: UPDATE counters SET n = n + 1 WHERE id = 2;\n"
    "\tProcess 11956: UPDATE counters SET n = n + 1 WHERE id = 1;\n"
    "2026-12-02 11:26:32.134 UTC [11953] postgres@lockgraph/lg_r_retry HINT:  See server log for query details.\n"
    "2026-12-02 11:26:32.134 UTC [11953] postgres@lockgraph/lg_r_retry CONTEXT:  while updating tuple (0,1) in relation \"counters\"\n"
    "2026-12-02 11:26:32.134 UTC [11953] postgres@lockgraph/lg_r_retry STATEMENT:  UPDATE counters SET n = n + 1 WHERE id = 1;\n"
    "2026-12-02 11:26:32.135 UTC [11954] postgres@lockgraph/lg_r_retry ERROR:  deadlock detected\n"
    "2026-12-02 11:26:32.135 UTC [11954] postgres@lockgraph/lg_r_retry DETAIL:  Process 11954 waits for ShareLock on transaction 763; blocked by process 11956.\n"
    "\tProcess 11956 waits for ShareLock on transaction 765; blocked by process 11955.\n"
    "\tProcess 11955 waits for ExclusiveLock on tuple (0,2) of relation 16440 of database 16384; blocked by process 11954.\n"
    "\tProcess 11954: UPDATE counters SET n = n + 1 WHERE id = 2;\n"
    "\tProcess 11956: UPDATE counters SET n = n + 1 WHERE id = 1;\n"
    "\tProcess 11955: UPDATE counters SET n = n + 1 WHERE id = 2;\n"
    "2026-12-02 11:26:32.135 UTC [11954] postgres@lockgraph/lg_r_retry HINT:  See server log for query details.\n"
    "2026-12-02 11:26:32.135 UTC [11954] postgres@lockgraph/lg_r_retry CONTEXT:  while updating tuple (0,2) in relation \"counters\"\n"
    "2026-12-02 11:26:32.135 UTC [11954] postgres@lockgraph/lg_r_retry STATEMENT:  UPDATE counters SET n = n + 1 WHERE id = 2;\n"
    "2026-12-02 11:26:32.235 UTC [11956] postgres@lockgraph/lg_r_retry ERROR:  deadlock detected\n"
    "2026-12-02 11:26:32.235 UTC [11956] postgres@lockgraph/lg_r_retry DETAIL:  Process 11956 waits for ShareLock on transaction 765; blocked by process 11955.\n"
    "\tProcess 11955 waits for ShareLock on transaction 763; blocked by process 11956.\n"
    "\tProcess 11956: UPDATE counters SET n = n + 1 WHERE id = 1;\n"
    "\tProcess 11955: UPDATE counters SET n = n + 1 WHERE id = 2;\n"
    "2026-12-02 11:26:32.235 UTC [11956] postgres@lockgraph/lg_r_retry HINT:  See server log for query details.\n"
    "2026-12-02 11:26:32.235 UTC [11956] postgres@lockgraph/lg_r_retry CONTEXT:  while updating tuple (0,1) in relation \"counters\"\n"
    "2026-12-02 11:26:32.235 UTC [11956] postgres@lockgraph/lg_r_retry STATEMENT:  UPDATE counters SET n = n + 1 WHERE id = 1;\n"
    "2026-12-02 11:26:32.340 UTC [11955] postgres@lockgraph/lg_r_retry ERROR:  deadlock detected\n"
    "2026-12-02 11:26:32.340 UTC [11955] postgres@lockgraph/lg_r_retry DETAIL:  Process 11955 waits for ShareLock on transaction 767; blocked by process 11953.\n"
    "\tProcess 11953 waits for ExclusiveLock on tuple (0,23) of relation 16440 of database 16384; blocked by process 11956.\n"
    "\tProcess 11956 waits for ShareLock on transaction 768; blocked by process 11954.\n"
    "\tProcess 11954 waits for ExclusiveLock on tuple (0,22) of relation 16440 of database 16384; blocked by process 11955.\n"
    "\tProcess 11955: UPDATE counters SET n = n + 1 WHERE id = 1;\n"
    "\tProcess 11953: UPDATE counters SET n = n + 1 WHERE id = 2;\n"
    "\tProcess 11956: UPDATE counters SET n = n + 1 WHERE id = 2;\n"
    "\tProcess 11954: UPDATE counters SET n = n + 1 WHERE id = 1;\n"
    "2026-12-02 11:26:32.340 UTC [11955] postgres@lockgraph/lg_r_retry HINT:  See server log for query details.\n"
    "2026-12-02 11:26:32.340 UTC [11955] postgres@lockgraph/lg_r_retry CONTEXT:  while updating tuple (0,22) in relation \"counters\"\n"
    "2026-12-02 11:26:32.340 UTC [11955] postgres@lockgraph/lg_r_retry STATEMENT:  UPDATE counters SET n = n + 1 WHERE id = 1;\n";

}  // namespace lockgraph::excerpts
