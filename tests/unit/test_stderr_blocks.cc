// The stderr reader takes a file a block of lines at a time (BlockParser,
// on one thread): it must deliver exactly what it delivers line by line, as
// it does for a pipe: the same events, lines not understood and
// diagnostics, in the same order and with the same line numbers, and the
// same counts. On every stderr file of samples/, tests/corpus/ and
// tests/golden/, and on a generated log with what pastes and editors do to
// lines (CRLF, trailing blanks, lost TABs, blank lines, grep's "--", lines
// longer than the 512 bytes a label is looked for in, no final newline).
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "emit/event_json.h"
#include "parsers/block_parser.h"
#include "parsers/builtin_formats.h"
#include "support.h"

namespace lockgraph {
namespace {

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

std::string Counts(const LineCounts& c) {
  return "counts " + std::to_string(c.total) + " " + std::to_string(c.parsed) + " " +
         std::to_string(c.skipped) + " " + std::to_string(c.unparsed) + " " +
         std::to_string(c.unattached);
}

/// The stderr parser for `text` as analyze makes it: the prefix detected
/// on the first lines, or none when the sniff does not take the text.
std::unique_ptr<LineParser> Parser(const InputFormat& format, std::string_view text,
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
std::vector<std::string> LineByLine(const InputFormat& format, std::string_view text) {
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

/// As LineReader::ForEachBlock hands a file's blocks over.
std::vector<std::string> ByBlocks(const InputFormat& format, std::string_view text, size_t block) {
  Collected out;
  auto parser = Parser(format, text, out);
  REQUIRE(parser);
  BlockParser* blocks = AsBlockParser(*parser);
  REQUIRE(blocks);
  CHECK_FALSE(blocks->ParsesOnThreads());
  test::ForEachBlockOf(text, block, [&](std::string_view data, bool at_end) {
    const size_t took = blocks->ParseBlock(data, at_end);
    REQUIRE(took == data.size());
    return took;
  });
  parser->Finish();
  out.items.push_back(Counts(parser->counts()));
  return out.items;
}

/// True when `text` is read as stderr at all; then every way of cutting it
/// into blocks gave what line by line gave.
bool ExpectSameByBlocks(std::string_view text, const std::string& what) {
  const auto format = MakePgStderrFormat();
  const std::vector<std::string> expected = LineByLine(*format, text);
  if (expected.empty()) return false;
  for (size_t block : {size_t{1}, size_t{97}, size_t{4096}, size_t{1} << 20}) {
    INFO(what << ", blocks of " << block << " bytes");
    const std::vector<std::string> got = ByBlocks(*format, text, block);
    REQUIRE(got.size() == expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
      INFO("item " << i);
      REQUIRE(got[i] == expected[i]);
    }
  }
  return true;
}

/// A stderr log made of the lines of `pool` with what pastes, editors and
/// grep do to lines, and long lines.
std::string HostileStderr(uint32_t seed, const std::vector<std::string>& pool) {
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

TEST_CASE("stderr read by blocks: the samples", "[stderr-blocks]") {
  size_t read = 0;
  for (const std::string& path : test::SampleInputs()) {
    if (path.ends_with(".gz") || path.ends_with(".zst")) continue;
    read += ExpectSameByBlocks(test::ReadFile(path), path);
  }
  CHECK(read > 40);
}

TEST_CASE("stderr read by blocks: what pastes and editors do to lines", "[stderr-blocks]") {
  std::vector<std::string> pool;
  for (const char* name : {"/postgresql/scenarios.log", "/postgresql/groups.log"})
    for (std::string& line : test::SplitLines(test::ReadFile(LOCKGRAPH_SAMPLES_DIR + std::string(name))))
      pool.push_back(std::move(line));
  REQUIRE(pool.size() > 1000);
  for (uint32_t seed = 1; seed <= 6; ++seed)
    CHECK(ExpectSameByBlocks(HostileStderr(seed, pool), "seed " + std::to_string(seed)));
}

TEST_CASE("stderr: a label that ends its line, as when a query starts on the next one",
          "[stderr-blocks]") {
  // The server writes "STATEMENT:  " and then the query; when the query
  // starts with a newline, the line ends with the label and its two
  // spaces, cut with the trailing blanks. Such a line is read in place
  // (the label's colon ends it); the same log whose lines lost those two
  // spaces (an editor) is read by the prefix's full regex. Both give the
  // same events, lines and counts, line by line and by blocks.
  const auto format = MakePgStderrFormat();
  std::string spaced, bare;
  size_t moved = 0;
  for (const std::string& line : test::SplitLines(
           test::ReadFile(LOCKGRAPH_SAMPLES_DIR + std::string("/postgresql/scenarios.log")))) {
    const size_t at = line.find(" STATEMENT:  ");
    const size_t detail = line.find(" DETAIL:  ");
    const size_t label = at != std::string::npos       ? at + 13
                         : detail != std::string::npos ? detail + 10
                                                       : 0;
    if (label == 0) {
      spaced += line + "\n";
      bare += line + "\n";
      continue;
    }
    ++moved;
    spaced += line.substr(0, label) + "\n\t" + line.substr(label) + "\n";
    bare += line.substr(0, label - 2) + "\n\t" + line.substr(label) + "\n";
  }
  REQUIRE(moved > 500);
  const std::vector<std::string> expected = LineByLine(*format, bare);
  REQUIRE(expected.size() > 100);
  size_t events = 0;
  for (const std::string& item : expected) events += item.starts_with("event ");
  CHECK(events > 50);
  CHECK(LineByLine(*format, spaced) == expected);
  for (size_t block : {size_t{97}, size_t{1} << 20}) {
    INFO("blocks of " << block << " bytes");
    CHECK(ByBlocks(*format, spaced, block) == expected);
    CHECK(ByBlocks(*format, bare, block) == expected);
  }
}

}  // namespace
}  // namespace lockgraph
