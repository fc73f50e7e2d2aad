// LineReader::ForEachBlock (src/io/line_reader.cc): every byte of a
// file, plain or gzip, handed over exactly once and in order, in blocks of
// whole lines, whatever the block size and however much of each block the
// parser takes; the last line without its newline comes at the end; a
// parser that takes nothing gets a larger block; a cut gzip file is an error
// after every byte before the cut.
#include <catch2/catch.hpp>

#include <cstdio>
#include <random>
#include <string>

#include "io/line_reader.h"
#include "support.h"

namespace lockgraph {
namespace {

using test::Gzip;
using test::TempFile;

/// Lines of random length (1 in 500 longer than 1 MiB), the last one
/// perhaps without its newline.
std::string RandomLines(uint32_t seed, size_t bytes) {
  std::mt19937 rng(seed);
  std::string text;
  for (unsigned n = 0; text.size() < bytes; ++n) {
    const size_t len = rng() % 500 == 0 ? (1 << 20) + rng() % 70000 : rng() % 300;
    text += std::to_string(n) + ':' + std::string(len, char('a' + n % 26)) + '\n';
  }
  if (seed % 2) text.pop_back();
  return text;
}

struct Taken {
  std::string bytes;
  int blocks = 0, at_end = 0;
  size_t largest = 0;
};

/// Reads `path` by blocks of `block` bytes; the parser takes, of each
/// block, a random number of its whole lines (at times none), and all of
/// the last.
Taken ReadByBlocks(const std::string& path, size_t block, uint32_t seed, bool* ok,
                   std::string* error) {
  std::mt19937 rng(seed);
  Taken t;
  std::unique_ptr<LineReader> reader = LineReader::Open(path, error);
  REQUIRE(reader);
  REQUIRE(reader->regular_file());
  *ok = reader->ForEachBlock(
      block,
      [&](std::string_view lines, bool at_end) -> size_t {
        ++t.blocks;
        t.largest = std::max(t.largest, lines.size());
        REQUIRE(t.at_end == 0);
        if (at_end) {
          ++t.at_end;
          t.bytes.append(lines);
          return lines.size();
        }
        REQUIRE(!lines.empty());
        REQUIRE(lines.back() == '\n');
        size_t took = 0;
        const unsigned keep = rng() % 4;  // 0: all, 1: none, else: up to a random line
        if (keep == 0) took = lines.size();
        if (keep >= 2) {
          const size_t nl = lines.rfind('\n', rng() % lines.size());
          took = nl == std::string_view::npos ? 0 : nl + 1;
        }
        t.bytes.append(lines.substr(0, took));
        return took;
      },
      error);
  return t;
}

TEST_CASE("ForEachBlock hands over every byte once, in order, by whole lines", "[blocks]") {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    const std::string text = RandomLines(seed, seed <= 3 ? 200000 : 6 << 20);
    const std::string plain = TempFile(text), gz = TempFile(Gzip(text));
    for (size_t block : {size_t{64}, size_t{4096}, size_t{1} << 20}) {
      for (const std::string& path : {plain, gz}) {
        INFO("seed " << seed << ", block " << block << ", " << path);
        bool ok = false;
        std::string error;
        const Taken t = ReadByBlocks(path, block, seed, &ok, &error);
        CHECK(ok);
        CHECK(error.empty());
        REQUIRE(t.bytes.size() == text.size());
        CHECK(t.bytes == text);
        CHECK(t.blocks > 1);
        // A last line without its newline comes in a last call, at_end.
        if (text.back() != '\n') CHECK(t.at_end == 1);
      }
    }
    std::remove(plain.c_str());
    std::remove(gz.c_str());
  }
}

TEST_CASE("ForEachBlock: a cut gzip file is an error, after the bytes before the cut",
          "[blocks]") {
  const std::string text = RandomLines(2, 3 << 20);
  const std::string gz = Gzip(text);
  const std::string path = TempFile(gz.substr(0, gz.size() / 2));
  bool ok = true;
  std::string error;
  const Taken t = ReadByBlocks(path, 1 << 16, 7, &ok, &error);
  CHECK_FALSE(ok);
  CHECK(error.find("truncated gzip input") != std::string::npos);
  CHECK(t.bytes.size() > 0);
  CHECK(t.bytes.size() < text.size());
  CHECK(text.compare(0, t.bytes.size(), t.bytes) == 0);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace lockgraph
