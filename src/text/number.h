// Whole-string number parsing for the readers of every format: "123" is
// 123, "12a", "" and " 1" are nothing. No locale, no exceptions.
#pragma once

#include <charconv>
#include <optional>
#include <string_view>
#include <system_error>

namespace lockgraph {

/// An ASCII digit, in no locale (<cctype>'s isdigit asks the locale).
inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

/// `s` read whole as a number of type T (an integer type), or nullopt when
/// it is empty, has anything else in it, or does not fit T.
template <typename T>
std::optional<T> ParseNumber(std::string_view s) {
  T value{};
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

}  // namespace lockgraph
