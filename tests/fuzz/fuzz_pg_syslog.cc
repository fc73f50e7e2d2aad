// libFuzzer target: PostgreSQL through syslog (numbered chunks, #011 tabs).
// Seeds and dictionary: tests/fuzz/run.sh, tests/fuzz/dict/pg_syslog.dict.
#include "fuzz_format.h"

LOCKGRAPH_FUZZ_FORMAT(MakePgSyslogFormat, true)
