// See duration.h.
#include "watch/duration.h"

#include <charconv>
#include <cmath>
#include <string>

namespace lockgraph {

std::optional<double> ParseDurationMs(std::string_view text) {
  size_t unit = text.find_first_not_of("0123456789.");
  std::string number(text.substr(0, unit));
  std::string_view suffix = unit == std::string_view::npos ? "" : text.substr(unit);
  if (number.empty()) return std::nullopt;
  double value = 0;
  auto r = std::from_chars(number.data(), number.data() + number.size(), value);
  if (r.ec != std::errc() || r.ptr != number.data() + number.size() || !std::isfinite(value))
    return std::nullopt;
  if (suffix == "ms") return value;
  if (suffix.empty() || suffix == "s") return value * 1000;
  if (suffix == "m" || suffix == "min") return value * 60000;
  if (suffix == "h") return value * 3600000;
  return std::nullopt;
}

}  // namespace lockgraph
