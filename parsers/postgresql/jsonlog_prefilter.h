// The jsonlog fast path: most records of a log (durations, connections,
// checkpoints) say nothing about locks, and a full JSON parse of each one
// was 90% of the time. This finds the raw "message" value of a line with
// memmem, without parsing, so the reader can count such a record and move on;
// anything unusual goes to the full parser (nlohmann), which stays the only
// judge of lines that may matter.
#pragma once

#include <optional>
#include <string_view>

namespace lockgraph {

/// The raw text of the line's "message" value when the line plainly looks
/// like one jsonlog record: '{' first and '}' last (ignoring blanks), a
/// "timestamp" or "log_time" key before the only `"message"` in the line,
/// and a string value free of backslashes (so the raw bytes are the text).
/// nullopt otherwise: the caller must parse the line in full.
std::optional<std::string_view> PlainJsonlogMessage(std::string_view line);

}  // namespace lockgraph
