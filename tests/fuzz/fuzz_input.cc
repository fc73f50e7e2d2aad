// libFuzzer target: arbitrary bytes go through every registered input
// format (its sniffer, then its parser, line by line as the LineReader feeds
// them), and every event made is rendered by every emitter. So a new format
// or emitter is fuzzed as soon as it is registered. Every event is also
// redacted (--redact) and the whole input read as one query to redact.
// Crashes, sanitizer reports and uncaught exceptions are findings.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/redact.h"
#include "app/report.h"
#include "emit/emitter.h"
#include "parsers/input_format.h"

namespace {

class CollectSink : public lockgraph::ParseSink {
 public:
  void OnEvent(lockgraph::Event&& event) override {
    if (events.size() < 64) events.push_back(std::move(event));
  }
  void OnUnparsed(const std::string&, uint64_t, std::string_view) override {}
  void OnDiagnostic(lockgraph::Diagnostic&&) override {}
  std::vector<lockgraph::Event> events;
};

std::vector<std::string> SplitLines(std::string_view data) {
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> lines = SplitLines(input);
  (void)lockgraph::RedactSql(input);
  (void)lockgraph::RedactContextLine(input);
  for (auto& format : lockgraph::RegisterBuiltinFormats()) {
    lockgraph::ParseOptions options;
    std::vector<std::string> head(lines.begin(), lines.begin() + std::min<size_t>(lines.size(), 200));
    lockgraph::SniffResult sniff = format->Sniff(head, options);
    CollectSink sink;
    auto parser = format->CreateParser("fuzz", options, sniff.detected, sink);
    uint64_t no = 0;
    for (const std::string& line : lines) parser->ParseLine(line, ++no);
    parser->Finish();
    lockgraph::Report report;
    report.events = std::move(sink.events);
    for (const auto& ev : report.events) {
      lockgraph::Event copy = ev;
      lockgraph::RedactEvent(&copy);
    }
    for (auto& emitter : lockgraph::RegisterBuiltinEmitters()) {
      std::ostringstream out;
      for (const auto& ev : report.events) emitter->OnEvent(ev, out);
      emitter->Write(report, out);
    }
  }
  return 0;
}
