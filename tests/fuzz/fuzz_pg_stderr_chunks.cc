// libFuzzer target: the stderr reader with a block's parts read on several
// threads (parsers/postgresql/stderr_chunks.h) against the same reader line
// by line (fuzz_blocks.h). Seeds and dictionary: stderr's (tests/fuzz/run.sh).
#include "fuzz_blocks.h"

LOCKGRAPH_FUZZ_BLOCKS(MakePgStderrFormat)
