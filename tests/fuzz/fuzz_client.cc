// libFuzzer target: application and test output (the client format), seeded
// with samples/postgresql/clients/*.txt by tests/fuzz/run.sh.
#include "fuzz_format.h"

LOCKGRAPH_FUZZ_FORMAT(MakeClientFormat, true)
