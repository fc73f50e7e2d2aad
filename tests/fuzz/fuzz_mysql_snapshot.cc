// libFuzzer target: MySQL / MariaDB lock snapshots (docs/mysql-snapshot.sql
// saved by mariadb --batch or --vertical). Seeds and dictionary:
// tests/fuzz/run.sh, tests/fuzz/dict/mysql_snapshot.dict.
#include "fuzz_format.h"

LOCKGRAPH_FUZZ_FORMAT(MakeMysqlSnapshotFormat, true)
