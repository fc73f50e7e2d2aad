// Test helpers for the record readers (csvlog, jsonlog, syslog): split an
// inline raw string into physical lines as the line reader does, run a
// reader over them and collect what its callbacks deliver.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parsers/input_format.h"
#include "parsers/postgresql/record_reader.h"

namespace lockgraph::record_test {

inline std::string Opt(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "-"; }
inline std::string Opt(const std::optional<uint64_t>& v) { return v ? std::to_string(*v) : "-"; }

/// Every field of a record, one string.
inline std::string Describe(const LogRecord& r) {
  const SessionInfo& s = r.session;
  std::string out = "record " + r.source.file + ":" + std::to_string(r.source.first_line) + "-" +
                    std::to_string(r.source.last_line) + " [" + r.source.kind + "]";
  for (const std::string* f : {&r.time, &r.severity, &r.sqlstate, &r.message, &r.detail, &r.hint,
                               &r.context, &r.statement, &s.user, &s.database, &s.application,
                               &s.host, &s.session_id, &s.backend_type, &s.command_tag, &s.vxid})
    out += "|" + *f;
  out += "|pid=" + Opt(r.pid) + "|xid=" + Opt(s.xid) + "|line=" + Opt(s.session_line) +
         "|qid=" + Opt(s.query_id) + (r.truncated ? "|cut" : "") +
         (r.primary_missing ? "|no-primary" : "");
  return out;
}

/// Lines of `text` split at '\n' (kept '\r'); a final '\n' ends the last
/// line instead of starting an empty one.
inline std::vector<std::string> Lines(std::string_view text) {
  std::vector<std::string> lines;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return lines;
}

/// Everything a reader delivered, in order.
struct Collected {
  std::vector<LogRecord> records;
  std::vector<std::pair<uint64_t, std::string>> unparsed;
  std::vector<Diagnostic> diagnostics;
  LineCounts counts;

  RecordCallbacks Callbacks() {
    RecordCallbacks cb;
    cb.on_record = [this](LogRecord&& r) { records.push_back(std::move(r)); };
    cb.on_unparsed = [this](uint64_t line_no, std::string_view text) {
      unparsed.emplace_back(line_no, std::string(text));
    };
    cb.on_diagnostic = [this](Diagnostic&& d) { diagnostics.push_back(std::move(d)); };
    return cb;
  }
};

/// Runs a `Reader` (file "test.log") over `text`, then Finish().
template <typename Reader, typename... Args>
Collected Read(std::string_view text, Args&&... args) {
  Collected out;
  Reader reader("test.log", out.Callbacks(), std::forward<Args>(args)...);
  uint64_t line_no = 0;
  for (const std::string& line : Lines(text)) reader.ParseLine(line, ++line_no);
  reader.Finish();
  out.counts = reader.counts();
  return out;
}

/// A ParseSink that keeps everything.
class CollectingSink : public ParseSink {
 public:
  void OnEvent(Event&& event) override { events.push_back(std::move(event)); }
  void OnUnparsed(const std::string& file, uint64_t line, std::string_view text) override {
    unparsed.emplace_back(line, std::string(text));
  }
  void OnDiagnostic(Diagnostic&& diag) override { diagnostics.push_back(std::move(diag)); }

  std::vector<Event> events;
  std::vector<std::pair<uint64_t, std::string>> unparsed;
  std::vector<Diagnostic> diagnostics;
};

/// Runs `format`'s parser over `text` into `sink`; returns its counts.
inline LineCounts ParseWith(const InputFormat& format, std::string_view text,
                            CollectingSink& sink, const std::string& detected = "",
                            const ParseOptions& options = {}) {
  auto parser = format.CreateParser("test.log", options, detected, sink);
  uint64_t line_no = 0;
  for (const std::string& line : Lines(text)) parser->ParseLine(line, ++line_no);
  parser->Finish();
  return parser->counts();
}

}  // namespace lockgraph::record_test
