// What the stderr (or syslog) reader delivers, as strings in order: line
// by line (a pipe) or by blocks (a file, on one thread or several), and a
// log with what pastes, editors and grep do to lines. Shared by the tests that hold
// the block readers to the line-by-line one.
#pragma once

#include <catch2/catch.hpp>

#include <initializer_list>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "emit/event_json.h"
#include "parsers/block_parser.h"
#include "parsers/builtin_formats.h"
#include "support.h"

namespace lockgraph::stderr_test {

struct Collected : ParseSink {
  std::vector<std::string> items;
  void OnEvent(Event&& ev) override { items.push_back("event " + EventJsonText(ev, -1, 0)); }
  void OnUnparsed(const std::string& file, uint64_t line, std::string_view text) override {
    items.push_back("unparsed " + file + ":" + std::to_string(line) + " " + std::string(text));
  }
  void OnDiagnostic(Diagnostic&& d) override {
    items.push_back("diagnostic " + d.file + ":" + std::to_string(d.line) + " " + d.message);
  }
};

inline std::string Counts(const LineCounts& c) {
  return "counts " + std::to_string(c.total) + " " + std::to_string(c.parsed) + " " +
         std::to_string(c.skipped) + " " + std::to_string(c.unparsed) + " " +
         std::to_string(c.unattached);
}

/// The stderr parser for `text` as analyze makes it: the prefix detected
/// on the first lines, or none when the sniff does not take the text.
inline std::unique_ptr<LineParser> Parser(const InputFormat& format, std::string_view text,
                                          ParseSink& sink) {
  std::vector<std::string> head;
  for (size_t begin = 0; begin < text.size() && head.size() < 200;) {
    const size_t end = std::min(text.find('\n', begin), text.size());
    head.emplace_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  const SniffResult sniff = format.Sniff(head, ParseOptions{});
  if (sniff.verdict != SniffResult::Verdict::kMatch) return nullptr;
  auto parser = format.CreateParser("f", ParseOptions{}, sniff.detected, sink);
  parser->Prepare(head);
  return parser;
}

/// Line by line, as from a pipe; empty when the sniff does not take it.
inline std::vector<std::string> LineByLine(const InputFormat& format, std::string_view text) {
  Collected out;
  auto parser = Parser(format, text, out);
  if (!parser) return {};
  uint64_t line_no = 0;
  for (size_t begin = 0; begin < text.size();) {
    const size_t end = std::min(text.find('\n', begin), text.size());
    parser->ParseLine(text.substr(begin, end - begin), ++line_no);
    begin = end + 1;
  }
  parser->Finish();
  out.items.push_back(Counts(parser->counts()));
  return out.items;
}

/// As LineReader::ForEachBlock hands a file's blocks over, and as
/// Analyzer::ReadAll asks for `threads` threads.
inline std::vector<std::string> ByBlocks(const InputFormat& format, std::string_view text,
                                         size_t block, unsigned threads = 1) {
  Collected out;
  auto parser = Parser(format, text, out);
  REQUIRE(parser);
  BlockParser* blocks = AsBlockParser(*parser);
  REQUIRE(blocks);
  CHECK_FALSE(blocks->ParsesOnThreads());
  blocks->UseThreads(threads);
  test::ForEachBlockOf(text, block, [&](std::string_view data, bool at_end) {
    const size_t took = blocks->ParseBlock(data, at_end);
    REQUIRE(took == data.size());
    return took;
  });
  parser->Finish();
  out.items.push_back(Counts(parser->counts()));
  return out.items;
}

/// A stderr log made of the lines of `pool` with what pastes, editors and
/// grep do to lines, and long lines.
inline std::string HostileStderr(uint32_t seed, const std::vector<std::string>& pool) {
  std::mt19937 rng(seed);
  std::string out;
  for (int i = 0; i < 3000; ++i) {
    std::string line = pool[rng() % pool.size()];
    switch (rng() % 12) {
      case 0: line += "\r"; break;
      case 1: line += " \t "; break;
      case 2:
        if (!line.empty() && line[0] == '\t') line.replace(0, 1, "    ");  // a TAB lost in a paste
        break;
      case 3: out += "\n"; break;
      case 4: out += "--\n"; break;
      case 5: line += std::string(600 + rng() % 900, 'x'); break;
      case 6: line = std::string(520 + rng() % 40, 'y') + " LOG:  after 512 bytes"; break;
      case 7: line.insert(0, "[" + std::to_string(rng() % 9) + "]:  "); break;
      default: break;
    }
    out += line + "\n";
  }
  if (seed % 2) out.pop_back();  // no final newline
  return out;
}


/// True when `text` is read in `format` at all; then reading it by blocks of
/// each of `blocks` bytes, asking for each of `threads` threads, gave what
/// line by line gave, item by item.
inline bool ExpectSameByBlocks(const InputFormat& format, std::string_view text,
                               const std::string& what, std::initializer_list<unsigned> threads,
                               std::initializer_list<size_t> blocks) {
  const std::vector<std::string> expected = LineByLine(format, text);
  if (expected.empty()) return false;
  for (unsigned n : threads) {
    for (size_t block : blocks) {
      INFO(what << ", " << n << " threads, blocks of " << block << " bytes");
      const std::vector<std::string> got = ByBlocks(format, text, block, n);
      REQUIRE(got.size() == expected.size());
      for (size_t i = 0; i < got.size(); ++i) {
        INFO("item " << i);
        REQUIRE(got[i] == expected[i]);
      }
    }
  }
  return true;
}

/// ExpectSameByBlocks for the stderr format.
inline bool ExpectSameByBlocks(std::string_view text, const std::string& what,
                               std::initializer_list<unsigned> threads,
                               std::initializer_list<size_t> blocks) {
  return ExpectSameByBlocks(*MakePgStderrFormat(), text, what, threads, blocks);
}

/// Calls `expect(text, path)` on every uncompressed sample input; returns
/// how many it said true for.
template <typename Expect>
size_t OnEverySample(Expect&& expect) {
  size_t read = 0;
  for (const std::string& path : test::SampleInputs()) {
    if (path.ends_with(".gz") || path.ends_with(".zst")) continue;
    read += expect(test::ReadFile(path), path);
  }
  return read;
}

/// The lines HostileStderr draws from: the scenarios and groups samples.
inline std::vector<std::string> HostilePool() {
  std::vector<std::string> pool;
  for (const char* name : {"/postgresql/scenarios.log", "/postgresql/groups.log"})
    for (std::string& line :
         test::SplitLines(test::ReadFile(LOCKGRAPH_SAMPLES_DIR + std::string(name))))
      pool.push_back(std::move(line));
  REQUIRE(pool.size() > 1000);
  return pool;
}

}  // namespace lockgraph::stderr_test
