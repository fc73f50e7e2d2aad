// The two parsers behind ParseJsonlogLine (jsonlog_reader.h): simdjson's
// On-Demand API, which reads the lines it can vouch for, and nlohmann's SAX
// parser, the judge of everything else (invalid JSON, bytes that are not
// UTF-8, \u escapes, control characters, numbers that are not integers).
// Both are public so that a test can hold them to the same answers.
#pragma once

#include <optional>
#include <string_view>

#include "model/log_record.h"
#include "parsers/postgresql/jsonlog_reader.h"

namespace lockgraph {

/// ParseJsonlogLine with nlohmann's SAX parser alone (the reference
/// implementation). Same contract as ParseJsonlogLine.
JsonLineKind ParseJsonlogLineNlohmann(std::string_view line, LogRecord* record);

/// ParseJsonlogLine with simdjson's On-Demand API, for a line that is valid
/// JSON and free of what only nlohmann judges (see the file comment):
/// then the same answer and the same *record as ParseJsonlogLineNlohmann.
/// nullopt when it declines the line (*record is then unspecified): the
/// caller must ask nlohmann. Uses one parser per thread. Never throws.
std::optional<JsonLineKind> ParseJsonlogLineSimd(std::string_view line, LogRecord* record);

}  // namespace lockgraph
