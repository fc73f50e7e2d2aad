// See log_time.h.
#include "analysis/log_time.h"

#include "text/timestamp.h"

namespace lockgraph {

std::optional<int64_t> LogClockMs(std::string_view s) {
  std::optional<CivilTime> t = ParseTimestamp(s);
  if (!t) return std::nullopt;
  return WallMicros(*t) / 1000;
}

}  // namespace lockgraph
