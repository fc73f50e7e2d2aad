// libFuzzer target: Cloud SQL and AlloyDB exports from Cloud Logging (NDJSON and JSON arrays), seeded with
// samples/postgresql/rendered/platform-* by tests/fuzz/run.sh.
#include "fuzz_format.h"

LOCKGRAPH_FUZZ_FORMAT(MakeGcpLoggingFormat, false)
