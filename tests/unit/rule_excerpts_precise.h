// Real PostgreSQL 15 log excerpts for the rule tests of issue 16, copied from
// samples/postgresql/rules-precise.log (scripts/make-rule-samples-precise.sh made them;
// the scenario table is in samples/postgresql/rules-precise-README.md).
#pragma once

namespace lockgraph::excerpts {

// PG002: ids sent as text: 17776 locks '9' then '10', 17789 '10' then '9'; victim 17789
inline constexpr const char* kTextOrderStrings =
    "2026-12-03 13:09:43.497 UTC [17789] postgres@lockgraph/lg_p_text_order_strings_B ERROR:  deadlock detected\n"
    "2026-12-03 13:09:43.497 UTC [17789] postgres@lockgraph/lg_p_text_order_strings_B DETAIL:  Process 17789 waits for ShareLock on transaction 743; blocked by process 17776.\n"
    "\tProcess 17776 waits for ShareLock on transaction 744; blocked by process 17789.\n"
    "\tProcess 17789: SELECT id FROM accounts WHERE id = '9' FOR UPDATE;\n"
    "\tProcess 17776: SELECT id FROM accounts WHERE id = '10' FOR UPDATE;\n"
    "2026-12-03 13:09:43.497 UTC [17789] postgres@lockgraph/lg_p_text_order_strings_B HINT:  See server log for query details.\n"
    "2026-12-03 13:09:43.497 UTC [17789] postgres@lockgraph/lg_p_text_order_strings_B CONTEXT:  while locking tuple (0,9) in relation \"accounts\"\n"
    "2026-12-03 13:09:43.497 UTC [17789] postgres@lockgraph/lg_p_text_order_strings_B STATEMENT:  SELECT id FROM accounts WHERE id = '9' FOR UPDATE;\n";

// PG004: both hold SHARE on audit; 17914 waits for RowExclusiveLock, 17929 for ExclusiveLock; victim 17929
inline constexpr const char* kUpgradeMixed =
    "2026-12-03 13:09:45.293 UTC [17929] postgres@lockgraph/lg_p_upgrade_mixed_B ERROR:  deadlock detected\n"
    "2026-12-03 13:09:45.293 UTC [17929] postgres@lockgraph/lg_p_upgrade_mixed_B DETAIL:  Process 17929 waits for ExclusiveLock on relation 16411 of database 16384; blocked by process 17914.\n"
    "\tProcess 17914 waits for RowExclusiveLock on relation 16411 of database 16384; blocked by process 17929.\n"
    "\tProcess 17929: LOCK TABLE audit IN EXCLUSIVE MODE;\n"
    "\tProcess 17914: INSERT INTO audit VALUES (3, 'c');\n"
    "2026-12-03 13:09:45.293 UTC [17929] postgres@lockgraph/lg_p_upgrade_mixed_B HINT:  See server log for query details.\n"
    "2026-12-03 13:09:45.293 UTC [17929] postgres@lockgraph/lg_p_upgrade_mixed_B STATEMENT:  LOCK TABLE audit IN EXCLUSIVE MODE;\n";

// PG006: 18066's CREATE INDEX CONCURRENTLY waits for 18050's virtual transaction; victim 18050
inline constexpr const char* kCic =
    "2026-12-03 13:09:47.125 UTC [18050] postgres@lockgraph/lg_p_cic_A ERROR:  deadlock detected\n"
    "2026-12-03 13:09:47.125 UTC [18050] postgres@lockgraph/lg_p_cic_A DETAIL:  Process 18050 waits for ShareLock on relation 16435 of database 16384; blocked by process 18066.\n"
    "\tProcess 18066 waits for ShareLock on virtual transaction 3/42; blocked by process 18050.\n"
    "\tProcess 18050: LOCK TABLE settings IN SHARE MODE;\n"
    "\tProcess 18066: CREATE INDEX CONCURRENTLY settings_v_idx ON settings (v);\n"
    "2026-12-03 13:09:47.125 UTC [18050] postgres@lockgraph/lg_p_cic_A HINT:  See server log for query details.\n"
    "2026-12-03 13:09:47.125 UTC [18050] postgres@lockgraph/lg_p_cic_A STATEMENT:  LOCK TABLE settings IN SHARE MODE;\n";

// PG007: 18161 holds advisory lock 301 and wants account 5, 18180 the reverse; victim 18180
inline constexpr const char* kAdvisoryMixed =
    "2026-12-03 13:09:49.040 UTC [18180] postgres@lockgraph/lg_p_advisory_mixed_B ERROR:  deadlock detected\n"
    "2026-12-03 13:09:49.040 UTC [18180] postgres@lockgraph/lg_p_advisory_mixed_B DETAIL:  Process 18180 waits for ExclusiveLock on advisory lock [16384,0,301,1]; blocked by process 18161.\n"
    "\tProcess 18161 waits for ShareLock on transaction 750; blocked by process 18180.\n"
    "\tProcess 18180: SELECT pg_advisory_xact_lock(301);\n"
    "\tProcess 18161: UPDATE accounts SET balance = balance + 1 WHERE id = 5;\n"
    "2026-12-03 13:09:49.040 UTC [18180] postgres@lockgraph/lg_p_advisory_mixed_B HINT:  See server log for query details.\n"
    "2026-12-03 13:09:49.040 UTC [18180] postgres@lockgraph/lg_p_advisory_mixed_B STATEMENT:  SELECT pg_advisory_xact_lock(301);\n";

// PG012: a deferred UNIQUE checked at COMMIT; victim 18322
inline constexpr const char* kCommitUnique =
    "2026-12-03 13:09:51.324 UTC [18322] postgres@lockgraph/lg_p_commit_unique_B ERROR:  deadlock detected\n"
    "2026-12-03 13:09:51.324 UTC [18322] postgres@lockgraph/lg_p_commit_unique_B DETAIL:  Process 18322 waits for ShareLock on transaction 752; blocked by process 18307.\n"
    "\tProcess 18307 waits for ShareLock on transaction 753; blocked by process 18322.\n"
    "\tProcess 18322: COMMIT;\n"
    "\tProcess 18307: COMMIT;\n"
    "2026-12-03 13:09:51.324 UTC [18322] postgres@lockgraph/lg_p_commit_unique_B HINT:  See server log for query details.\n"
    "2026-12-03 13:09:51.324 UTC [18322] postgres@lockgraph/lg_p_commit_unique_B CONTEXT:  while inserting index tuple (0,4) in relation \"slots_k_key\"\n"
    "2026-12-03 13:09:51.324 UTC [18322] postgres@lockgraph/lg_p_commit_unique_B STATEMENT:  COMMIT;\n";

}  // namespace lockgraph::excerpts
