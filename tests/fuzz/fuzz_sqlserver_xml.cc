// libFuzzer target: SQL Server deadlock XML (xml_deadlock_report, .xdl, XE events).
// Seeds and dictionary: tests/fuzz/run.sh, tests/fuzz/dict/sqlserver_xml.dict.
#include "fuzz_format.h"

LOCKGRAPH_FUZZ_FORMAT(MakeSqlServerXmlFormat, true)
