// A syslog file may hold several hosts' servers (a central rsyslog): the
// lines of each host are read apart, by a syslog reader of their own, so
// that two servers' backends never share a record, and each event names its
// host (docs/postgresql.md#servers).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "parsers/input_format.h"

namespace lockgraph {

/// A LineParser over syslog lines that hands each host's lines to its own
/// syslog reader (`prefix` as SyslogReader takes it); a line without
/// syslog framing goes with the line before it.
/// `redetect`: as SyslogReader's (the prefix was detected, not given).
std::unique_ptr<LineParser> MakeSyslogHostsParser(const std::string& file,
                                                  std::optional<std::string> prefix, bool redetect,
                                                  ParseSink& sink);

}  // namespace lockgraph
