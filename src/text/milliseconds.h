// Durations as the reports print them: "1534.4 ms".
#pragma once

#include <cstdio>
#include <string>

namespace lockgraph {

/// `ms` with one decimal and its unit: "690.9 ms".
inline std::string Ms(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", ms);
  return buf;
}

}  // namespace lockgraph
