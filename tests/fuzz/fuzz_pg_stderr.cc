// libFuzzer target: PostgreSQL stderr logs (log_line_prefix detected, or none).
// Seeds and dictionary: tests/fuzz/run.sh, tests/fuzz/dict/pg_stderr.dict.
#include "fuzz_format.h"

LOCKGRAPH_FUZZ_FORMAT(MakePgStderrFormat, true)
