// libFuzzer target: MySQL / MariaDB InnoDB deadlock reports (SHOW ENGINE
// INNODB STATUS in any client framing, error logs with
// innodb_print_all_deadlocks). Seeds: samples/mysql; dictionary:
// tests/fuzz/dict/mysql.dict.
#include "fuzz_format.h"

LOCKGRAPH_FUZZ_FORMAT(MakeMysqlInnodbFormat, true)
