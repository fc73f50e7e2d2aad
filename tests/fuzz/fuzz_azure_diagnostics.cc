// libFuzzer target: Azure diagnostic-settings JSON (records[] and PT1H.json), seeded with
// samples/postgresql/rendered/platform-* by tests/fuzz/run.sh.
#include "fuzz_format.h"

LOCKGRAPH_FUZZ_FORMAT(MakeAzureDiagnosticsFormat, false)
