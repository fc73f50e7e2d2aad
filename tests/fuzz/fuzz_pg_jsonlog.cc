// libFuzzer target: PostgreSQL jsonlog (one JSON object a line).
// Seeds and dictionary: tests/fuzz/run.sh, tests/fuzz/dict/pg_jsonlog.dict.
#include "fuzz_format.h"

LOCKGRAPH_FUZZ_FORMAT(MakePgJsonlogFormat, true)
