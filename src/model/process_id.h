// The order of process ids in every output: PostgreSQL pids as numbers
// (9 before 10), other ids ("prepared 3/12", SQL Server "process1a2b") after
// them, as text.
#pragma once

#include <charconv>
#include <cstdint>
#include <string_view>

namespace lockgraph {

inline bool ProcessIdLess(std::string_view a, std::string_view b) {
  auto number = [](std::string_view s, int64_t* v) {
    auto r = std::from_chars(s.data(), s.data() + s.size(), *v);
    return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
  };
  int64_t x = 0, y = 0;
  bool nx = number(a, &x), ny = number(b, &y);
  if (nx != ny) return nx;
  if (nx) return x < y;
  return a < b;
}

}  // namespace lockgraph
