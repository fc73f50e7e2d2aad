// libFuzzer target: PostgreSQL csvlog (CSV records spanning lines).
// Seeds and dictionary: tests/fuzz/run.sh, tests/fuzz/dict/pg_csvlog.dict.
#include "fuzz_format.h"

LOCKGRAPH_FUZZ_FORMAT(MakePgCsvlogFormat, true)
