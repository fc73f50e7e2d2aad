// libFuzzer target: pg_locks snapshots as JSON.
// Seeds and dictionary: tests/fuzz/run.sh, tests/fuzz/dict/pglocks_json.dict.
#include "fuzz_format.h"

LOCKGRAPH_FUZZ_FORMAT(MakePgLocksJsonFormat, true)
