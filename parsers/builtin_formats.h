// Factories of the builtin input formats, one per format file; listed in
// RegisterBuiltinFormats() (parsers/registry.cc).
#pragma once

#include <memory>

#include "parsers/input_format.h"

namespace lockgraph {

std::unique_ptr<InputFormat> MakePgCsvlogFormat();
std::unique_ptr<InputFormat> MakePgJsonlogFormat();
std::unique_ptr<InputFormat> MakePgSyslogFormat();
std::unique_ptr<InputFormat> MakePgStderrFormat();
std::unique_ptr<InputFormat> MakePgLocksCsvFormat();
std::unique_ptr<InputFormat> MakePgLocksJsonFormat();
std::unique_ptr<InputFormat> MakeSqlServerXmlFormat();
std::unique_ptr<InputFormat> MakeSqlServerErrorlogFormat();
std::unique_ptr<InputFormat> MakeGcpLoggingFormat();       // parsers/platform
std::unique_ptr<InputFormat> MakeAzureDiagnosticsFormat();  // parsers/platform
std::unique_ptr<InputFormat> MakeAzureLogAnalyticsFormat(); // parsers/platform
std::unique_ptr<InputFormat> MakeMysqlInnodbFormat();      // parsers/mysql
std::unique_ptr<InputFormat> MakeMysqlSnapshotFormat();    // parsers/mysql
std::unique_ptr<InputFormat> MakeClientFormat();

}  // namespace lockgraph
