// LineReader::ForEachBlock (src/io/line_reader.cc): every byte of a
// file, plain or gzip, handed over exactly once and in order, in blocks of
// whole lines, whatever the block size and however much of each block the
// parser takes; the last line without its newline comes at the end; a
// parser that takes nothing gets a larger block; a cut gzip file is an error
// after every byte before the cut. The same with another thread reading
// ahead for the parser (ShareReads, io/read_ahead.h), early or late.
#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>

#include "io/line_reader.h"
#include "io/read_ahead.h"
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

/// A thread that reads ahead for a reader when woken, as the rules' thread
/// does (app/sink_thread.h), at times after a random wait.
class Helper {
 public:
  /// `*reads` counts the blocks it read; look after it is gone.
  Helper(LineReader& reader, uint32_t seed, int* reads)
      : reader_(reader), rng_(seed), reads_(*reads) {
    reader_.ShareReads([this] { Wake(); });
    thread_ = std::thread([this] { Run(); });
  }
  /// Waits (at most 10 s) until the helper has been woken and tried to
  /// read once: on a loaded machine it may else never get a core before
  /// the reader is done.
  void WaitForFirstTry() {
    std::unique_lock<std::mutex> lock(mu_);
    tried_cv_.wait_for(lock, std::chrono::seconds(10), [this] { return tried_; });
  }
  ~Helper() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }
 private:
  void Wake() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      woken_ = true;
    }
    cv_.notify_one();
  }
  void Run() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      cv_.wait(lock, [this] { return stop_ || woken_; });
      if (stop_) return;
      woken_ = false;
      lock.unlock();
      if (rng_() % 3 == 0) std::this_thread::sleep_for(std::chrono::microseconds(rng_() % 300));
      if (reader_.ReadForOther()) ++reads_;
      lock.lock();
      tried_ = true;
      tried_cv_.notify_all();
    }
  }

  LineReader& reader_;
  std::mt19937 rng_;
  std::mutex mu_;
  std::condition_variable cv_, tried_cv_;
  bool woken_ = false, stop_ = false, tried_ = false;
  int& reads_;
  std::thread thread_;
};

/// Reads `path` by blocks of `block` bytes; the parser takes, of each
/// block, a random number of its whole lines (at times none), and all of
/// the last. With `helped`, another thread reads ahead (Helper); then
/// *helper_reads is how often it did.
Taken ReadByBlocks(const std::string& path, size_t block, uint32_t seed, bool* ok,
                   std::string* error, bool helped = false, int* helper_reads = nullptr) {
  std::mt19937 rng(seed);
  Taken t;
  std::unique_ptr<LineReader> reader = LineReader::Open(path, error);
  REQUIRE(reader);
  REQUIRE(reader->regular_file());
  int reads = 0;
  std::optional<Helper> helper;
  if (helped) helper.emplace(*reader, seed, &reads);
  *ok = reader->ForEachBlock(
      block,
      [&](std::string_view lines, bool at_end) -> size_t {
        ++t.blocks;
        // The helper was woken when this block was taken: let it try once.
        if (helper && t.blocks == 2) helper->WaitForFirstTry();
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
  helper.reset();  // joins its thread
  if (helper_reads) *helper_reads = reads;
  return t;
}

TEST_CASE("ForEachBlock hands over every byte once, in order, by whole lines", "[blocks]") {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    const std::string text = RandomLines(seed, seed <= 3 ? 200000 : 6 << 20);
    const std::string plain = TempFile(text), gz = TempFile(Gzip(text));
    // 3 MiB: the owner gathers blocks larger than the helper's reads.
    for (size_t block : {size_t{64}, size_t{4096}, size_t{1} << 20, size_t{3} << 20}) {
      if (block >= text.size()) continue;  // one block: nothing to gather
      for (const std::string& path : {plain, gz}) {
        for (bool helped : {false, true}) {
          INFO("seed " << seed << ", block " << block << ", " << path
                       << (helped ? ", helped" : ""));
          bool ok = false;
          std::string error;
          int helper_reads = 0;
          const Taken t = ReadByBlocks(path, block, seed, &ok, &error, helped, &helper_reads);
          // A file of several of its blocks is read ahead at least once.
          if (helped && text.size() > 3 * ReadAhead::kBlock) CHECK(helper_reads > 0);
          CHECK(ok);
          CHECK(error.empty());
          REQUIRE(t.bytes.size() == text.size());
          CHECK(t.bytes == text);
          CHECK(t.blocks > 1);
          // A last line without its newline comes in a last call, at_end.
          if (text.back() != '\n') CHECK(t.at_end == 1);
        }
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
  for (bool helped : {false, true}) {
    INFO((helped ? "helped" : "alone"));
    bool ok = true;
    std::string error;
    const Taken t = ReadByBlocks(path, 1 << 16, 7, &ok, &error, helped);
    CHECK_FALSE(ok);
    CHECK(error.find("truncated gzip input") != std::string::npos);
    CHECK(t.bytes.size() > 0);
    CHECK(t.bytes.size() < text.size());
    CHECK(text.compare(0, t.bytes.size(), t.bytes) == 0);
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace lockgraph
