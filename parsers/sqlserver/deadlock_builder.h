// One SQL Server deadlock graph, in whatever form it came (XML in any
// wrapper, or trace flag 1222 / 1204 text turned into the same tree), as a
// deadlock Event: processes, resources with their owner and waiter lists,
// the waits they prove (resource_reader.h), and the cycle through the
// victim found by the wait-for graph (docs/sqlserver.md).
#pragma once

#include <pugixml.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "model/event.h"

namespace lockgraph {

/// Where a report came from.
struct ReportOrigin {
  std::string file;
  uint64_t first_line = 0, last_line = 0;
  std::string time;                 // as written: the event timestamp, the ERRORLOG date
  std::optional<int64_t> epoch_ms;  // when the time has a zone (XE: UTC)
  /// "xml_deadlock_report" (the event name), "deadlock-list", "deadlock",
  /// "trace flag 1222", "trace flag 1204": goes to Deadlock::message.
  std::string form;
  bool cut = false;                 // the input ended inside the report
  std::string malformed;            // the XML error, when the tree is partial
  /// The file line of a node's offset in the parsed text; empty: first_line.
  std::function<uint64_t(ptrdiff_t offset)> line_of;
};

/// `deadlock` is the <deadlock> element (legacy `victim` attribute or a
/// <victim-list>). Never fails: what cannot be read is a problem of the
/// deadlock (complete = false), nothing is invented.
Event BuildSqlServerDeadlock(const pugi::xml_node& deadlock, const ReportOrigin& origin);

/// "2022-02-18T08:26:24.698Z" as milliseconds since the epoch; nothing when
/// the text is not an ISO 8601 UTC time.
std::optional<int64_t> UtcEpochMs(std::string_view iso);

}  // namespace lockgraph
