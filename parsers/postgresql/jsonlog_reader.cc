// See jsonlog_reader.h. A line is parsed by simdjson's On-Demand API when it
// can vouch for it, by nlohmann's SAX parser otherwise (jsonlog_parsers.h);
// both write the record through JsonlogFieldWriter (jsonlog_fields.h).
#include "parsers/postgresql/jsonlog_reader.h"

#include <optional>
#include <string>

#include "parsers/postgresql/jsonlog_parsers.h"
#include "parsers/postgresql/jsonlog_prefilter.h"

namespace lockgraph {

JsonLineKind ParseJsonlogLine(std::string_view line, LogRecord* record) {
  if (std::optional<JsonLineKind> kind = ParseJsonlogLineSimd(line, record)) return *kind;
  return ParseJsonlogLineNlohmann(line, record);
}

JsonlogReader::JsonlogReader(std::string file, RecordCallbacks callbacks)
    : file_(std::move(file)), cb_(std::move(callbacks)) {}

void JsonlogReader::ParseLine(std::string_view line, uint64_t line_no) {
  ++counts_.total;
  if (cb_.interesting && !cb_.deliver_uninteresting) {
    // Fast path: a record whose message the caller does not want is only
    // counted (jsonlog_prefilter.h says which lines qualify).
    const std::optional<std::string_view> message = PlainJsonlogMessage(line);
    if (message && !cb_.interesting(*message)) {
      ++counts_.parsed;
      return;
    }
  }
  if (ParseJsonlogLine(line, &scratch_) != JsonLineKind::kRecord) {
    ++counts_.unparsed;
    if (cb_.on_unparsed) cb_.on_unparsed(line_no, line);
    return;
  }
  ++counts_.parsed;
  if (!cb_.on_record) return;
  const bool keep = !cb_.interesting || cb_.interesting(scratch_.message);
  if (!keep && !cb_.deliver_uninteresting) return;
  LogRecord out;
  if (keep) {
    out = std::move(scratch_);
  } else {
    out.time = scratch_.time;
    out.pid = scratch_.pid;
    out.severity = scratch_.severity;
    out.sqlstate = scratch_.sqlstate;
    out.message = scratch_.message;
  }
  out.source = {file_, line_no, line_no, {}};
  cb_.on_record(std::move(out));
}

}  // namespace lockgraph
