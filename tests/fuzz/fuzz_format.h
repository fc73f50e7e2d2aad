// Shared body of the per-format libFuzzer targets (tests/fuzz/fuzz_*.cc):
// arbitrary bytes go through ONE input format, the way `lockgraph analyze`
// feeds it (sniff the first 200 lines, then the parser line by line, then
// Finish). Each target stays small so that libFuzzer's coverage feedback is
// about that format alone. Crashes, sanitizer reports and uncaught
// exceptions are findings.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/redact.h"
#include "analysis/report.h"
#include "emit/emitter.h"
#include "parsers/builtin_formats.h"
#include "parsers/input_format.h"

namespace lockgraph_fuzz {

/// Keeps the first events only: enough to render, bounded in memory.
class CollectSink : public lockgraph::ParseSink {
 public:
  void OnEvent(lockgraph::Event&& event) override {
    if (events.size() < 16) events.push_back(std::move(event));
  }
  void OnUnparsed(const std::string&, uint64_t, std::string_view) override {}
  void OnDiagnostic(lockgraph::Diagnostic&&) override {}
  std::vector<lockgraph::Event> events;
};

/// Splits like LineReader: on '\n', the '\r' of CRLF kept for the parser.
inline std::vector<std::string> SplitLines(std::string_view data) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < data.size()) {
    size_t nl = data.find('\n', start);
    if (nl == std::string_view::npos) nl = data.size();
    lines.emplace_back(data.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

/// Every emitter on what the parser made, the events also redacted
/// (--redact). DOT and HTML go through Graphviz, which is slow per input;
/// they run when `with_dot` is set.
inline void EmitAll(std::vector<lockgraph::Event>&& events, bool with_dot) {
  lockgraph::Report report;
  report.events = std::move(events);
  for (size_t i = 0, n = report.events.size(); i < n; ++i) {
    lockgraph::Event copy = report.events[i];
    lockgraph::RedactEvent(&copy);
    report.events.push_back(std::move(copy));
  }
  for (auto& emitter : lockgraph::RegisterBuiltinEmitters()) {
    if (!with_dot && (emitter->Name() == "dot" || emitter->Name() == "html")) continue;
    std::ostringstream out;
    for (const auto& ev : report.events) emitter->OnEvent(ev, out);
    emitter->Write(report, out);
  }
}

/// Sniffs and parses `data` with `format`; renders the events it made.
inline void FuzzOneFormat(const lockgraph::InputFormat& format, const uint8_t* data,
                          size_t size, bool with_dot) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  (void)lockgraph::RedactSql(input);  // the whole input as one query
  std::vector<std::string> lines = SplitLines(input);
  std::vector<std::string> head(lines.begin(),
                                lines.begin() + std::min<size_t>(lines.size(), 200));
  lockgraph::ParseOptions options;
  lockgraph::SniffResult sniff = format.Sniff(head, options);
  CollectSink sink;
  auto parser = format.CreateParser("fuzz", options, sniff.detected, sink);
  parser->Prepare(head);
  uint64_t no = 0;
  for (const std::string& line : lines) parser->ParseLine(line, ++no);
  parser->Finish();
  EmitAll(std::move(sink.events), with_dot);
}

}  // namespace lockgraph_fuzz

/// One target per format: LOCKGRAPH_FUZZ_FORMAT(MakePgCsvlogFormat, false).
#define LOCKGRAPH_FUZZ_FORMAT(factory, with_dot)                                \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {     \
    static const std::unique_ptr<lockgraph::InputFormat> format =               \
        lockgraph::factory();                                                   \
    lockgraph_fuzz::FuzzOneFormat(*format, data, size, with_dot);               \
    return 0;                                                                   \
  }
