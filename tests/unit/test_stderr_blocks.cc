// The stderr reader takes a file a block of lines at a time (BlockParser,
// on one thread): it must deliver exactly what it delivers line by line, as
// it does for a pipe: the same events, lines not understood and
// diagnostics, in the same order and with the same line numbers, and the
// same counts. On every stderr file of samples/, tests/corpus/ and
// tests/golden/, and on a generated log with what pastes and editors do to
// lines (CRLF, trailing blanks, lost TABs, blank lines, grep's "--", lines
// longer than the 512 bytes a label is looked for in, no final newline).
#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "parsers/builtin_formats.h"
#include "stderr_test_util.h"
#include "support.h"

namespace lockgraph {
namespace {

using stderr_test::ByBlocks;
using stderr_test::HostileStderr;
using stderr_test::LineByLine;

/// Blocks of 1 byte (a line a block) to 1 MiB, on one parsing thread.
bool ExpectSameByBlocks(std::string_view text, const std::string& what) {
  return stderr_test::ExpectSameByBlocks(text, what, {1u},
                                         {size_t{1}, size_t{97}, size_t{4096}, size_t{1} << 20});
}

TEST_CASE("stderr read by blocks: the samples", "[stderr-blocks]") {
  CHECK(stderr_test::OnEverySample(ExpectSameByBlocks) > 40);
}

TEST_CASE("stderr read by blocks: what pastes and editors do to lines", "[stderr-blocks]") {
  const std::vector<std::string> pool = stderr_test::HostilePool();
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
