// Reads the timestamps PostgreSQL writes (%m, %t, %n, csvlog and jsonlog
// log_time) into milliseconds, for rules that compare times within a run.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace lockgraph {

/// Milliseconds since 1970-01-01 00:00 of the wall-clock time written in
/// `time` ("2026-12-02 10:15:19.504 UTC", "2026-12-02 10:15:19 CET",
/// "1733134519.504"), ignoring the zone name: differences between two times
/// of one log are right as long as the zone does not change between them.
/// nullopt when the text is none of these forms.
std::optional<int64_t> LogClockMs(std::string_view time);

}  // namespace lockgraph
