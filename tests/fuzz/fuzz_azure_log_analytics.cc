// libFuzzer target: Azure Log Analytics CSV exports, seeded with
// samples/postgresql/rendered/platform-* by tests/fuzz/run.sh.
#include "fuzz_format.h"

LOCKGRAPH_FUZZ_FORMAT(MakeAzureLogAnalyticsFormat, false)
