// Durations on the command line: "250ms", "1s", "1.5s", "2m", "1h", or a
// bare number of seconds.
#pragma once

#include <optional>
#include <string_view>

namespace lockgraph {

/// Milliseconds, or nullopt when `text` is not a non-negative duration.
std::optional<double> ParseDurationMs(std::string_view text);

}  // namespace lockgraph
