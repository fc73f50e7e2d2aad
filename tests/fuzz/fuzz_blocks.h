// libFuzzer targets that hold a reader's blocks, read on several threads,
// to the same reader line by line (fuzz_pg_stderr_chunks.cc,
// fuzz_pg_syslog_blocks.cc). Any difference in the events, the lines not
// understood, the diagnostics or the counts is a finding (abort). The first
// byte picks the block size (32 to 4,112 bytes), so that parts start
// anywhere in records.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "emit/event_json.h"
#include "fuzz_format.h"
#include "parsers/block_parser.h"

namespace lockgraph_fuzz_blocks {

struct Recorded : lockgraph::ParseSink {
  std::vector<std::string> items;
  void OnEvent(lockgraph::Event&& ev) override {
    items.push_back("event " + lockgraph::EventJsonText(ev, -1, 0));
  }
  void OnUnparsed(const std::string&, uint64_t line, std::string_view text) override {
    items.push_back("unparsed " + std::to_string(line) + " " + std::string(text));
  }
  void OnDiagnostic(lockgraph::Diagnostic&& d) override {
    items.push_back("diagnostic " + std::to_string(d.line) + " " + d.message);
  }
};

/// `threads` 0: line by line; else by blocks of about `block` bytes of
/// whole lines, as LineReader::ForEachBlock hands a file over.
inline std::vector<std::string> Read(const lockgraph::InputFormat& format, std::string_view input,
                              unsigned threads, size_t block) {
  std::vector<std::string> lines = lockgraph_fuzz::SplitLines(input);
  std::vector<std::string> head(lines.begin(),
                                lines.begin() + std::min<size_t>(lines.size(), 200));
  lockgraph::ParseOptions options;
  const lockgraph::SniffResult sniff = format.Sniff(head, options);
  Recorded sink;
  auto parser = format.CreateParser("fuzz", options, sniff.detected, sink);
  parser->Prepare(head);
  if (threads == 0) {
    uint64_t no = 0;
    for (const std::string& line : lines) parser->ParseLine(line, ++no);
  } else {
    lockgraph::BlockParser* blocks = lockgraph::AsBlockParser(*parser);
    if (!blocks) abort();
    blocks->UseThreads(threads);
    for (size_t pos = 0; pos < input.size();) {
      size_t end = std::min(pos + block, input.size());
      if (end < input.size()) {
        size_t nl = input.rfind('\n', end - 1);
        if (nl == std::string_view::npos || nl < pos) nl = input.find('\n', end);
        end = nl == std::string_view::npos ? input.size() : nl + 1;
      }
      if (blocks->ParseBlock(input.substr(pos, end - pos), end == input.size()) != end - pos)
        abort();
      pos = end;
    }
  }
  parser->Finish();
  const lockgraph::LineCounts& c = parser->counts();
  sink.items.push_back("counts " + std::to_string(c.total) + " " + std::to_string(c.parsed) +
                       " " + std::to_string(c.skipped) + " " + std::to_string(c.unparsed) +
                       " " + std::to_string(c.unattached));
  return sink.items;
}

}  // namespace lockgraph_fuzz_blocks

/// The target: `factory` makes the format; line by line against three threads.
#define LOCKGRAPH_FUZZ_BLOCKS(factory)                                                    \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {              \
    static const std::unique_ptr<lockgraph::InputFormat> format = lockgraph::factory();   \
    if (size < 1) return 0;                                                               \
    const size_t block = 32 + size_t{data[0]} * 16;                                       \
    const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);      \
    if (lockgraph_fuzz_blocks::Read(*format, input, 0, 0) !=                              \
        lockgraph_fuzz_blocks::Read(*format, input, 3, block))                            \
      abort();                                                                            \
    return 0;                                                                             \
  }
