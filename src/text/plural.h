// Counts in words: "1 deadlock signature", "3 deadlock signatures".
#pragma once

#include <cstdint>
#include <string>

namespace lockgraph {

/// "N one" when n is 1, else "N many".
inline std::string Plural(uint64_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace lockgraph
