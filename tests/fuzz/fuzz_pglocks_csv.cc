// libFuzzer target: pg_locks snapshots as CSV (docs/snapshot.sql or a plain dump).
// Seeds and dictionary: tests/fuzz/run.sh, tests/fuzz/dict/pglocks_csv.dict.
#include "fuzz_format.h"

LOCKGRAPH_FUZZ_FORMAT(MakePgLocksCsvFormat, true)
