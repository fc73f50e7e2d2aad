// Durations as the reports print them: "1534.4 ms".
#pragma once

#include <string>

#include "text/number_text.h"

namespace lockgraph {

/// `ms` with one decimal and its unit: "690.9 ms" (printf's "%.1f ms").
inline std::string Ms(double ms) {
  std::string out;
  AppendFixed(&out, ms, 1);
  out += " ms";
  return out;
}

}  // namespace lockgraph
