// The explicit list of input formats. Order is sniffing priority: the
// structured formats first, stderr (the most permissive) last of the server
// logs, then client output (src/app/analyzer.cc falls back to it).
#include "parsers/builtin_formats.h"

namespace lockgraph {

std::vector<std::unique_ptr<InputFormat>> RegisterBuiltinFormats() {
  std::vector<std::unique_ptr<InputFormat>> formats;
  formats.push_back(MakePgLocksJsonFormat());
  formats.push_back(MakePgLocksCsvFormat());
  formats.push_back(MakeSqlServerXmlFormat());
  formats.push_back(MakeSqlServerErrorlogFormat());
  formats.push_back(MakeMysqlSnapshotFormat());
  formats.push_back(MakeMysqlInnodbFormat());
  formats.push_back(MakeGcpLoggingFormat());
  formats.push_back(MakeAzureDiagnosticsFormat());
  formats.push_back(MakeAzureLogAnalyticsFormat());
  formats.push_back(MakePgJsonlogFormat());
  formats.push_back(MakePgCsvlogFormat());
  formats.push_back(MakePgSyslogFormat());
  formats.push_back(MakePgStderrFormat());
  formats.push_back(MakeClientFormat());  // application output; also the fallback
  return formats;
}

}  // namespace lockgraph
