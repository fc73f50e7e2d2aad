// libFuzzer target: SQL Server ERRORLOG text of trace flags 1222 and 1204.
// Seeds and dictionary: tests/fuzz/run.sh, tests/fuzz/dict/sqlserver_errorlog.dict.
#include "fuzz_format.h"

LOCKGRAPH_FUZZ_FORMAT(MakeSqlServerErrorlogFormat, true)
