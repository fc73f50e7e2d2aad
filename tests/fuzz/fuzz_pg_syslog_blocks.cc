// libFuzzer target: the syslog reader with a block's parts read on several
// threads (parsers/postgresql/syslog_blocks.h) against the same reader line
// by line (fuzz_blocks.h). Seeds and dictionary: syslog's (tests/fuzz/run.sh).
#include "fuzz_blocks.h"

LOCKGRAPH_FUZZ_BLOCKS(MakePgSyslogFormat)
