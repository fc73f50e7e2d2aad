// The next block of an input, read by whichever of two threads gets to it
// first. The thread that parses a file (the owner) asks for bytes when it
// has parsed what it has; another thread with nothing to do (the one that
// runs the rules) may have read them already, into a spare buffer that the
// owner then swaps in. On two cores the kernel's copy of a read() is a
// fifth of the parsing thread's time, and the rules' thread waits for
// records a third of its own (docs/performance.md, "Reads shared with the
// rules' thread"). Reads stay in input order: one at a time, the helper's
// at most kAhead blocks ahead of the owner.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace lockgraph {

class ReadAhead {
 public:
  /// `produce(dst, want, error)` reads (or decodes) up to `want` of the
  /// input's next bytes into `dst`: their count, 0 at the end, -1 on an
  /// error (then *error says why). It is called by one thread at a time.
  /// `wake()` tells the helper that a read is wanted; it must not block.
  using Produce = std::function<long(char* dst, size_t want, std::string* error)>;
  ReadAhead(Produce produce, std::function<void()> wake);
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  /// The owner: the helper may read from now on.
  void Start();
  /// The owner: appends the input's next bytes to `*buf` after `*end`, up
  /// to `want` when it reads them itself, a whole helper's block when the
  /// helper read them. The bytes from `*begin` to `*end` stay in front of
  /// them, but `*buf` may be swapped with the spare buffer, and then
  /// `*begin` and `*end` move. Returns what `produce` returned.
  long Next(std::vector<char>* buf, size_t* begin, size_t* end, size_t want,
            std::string* error);
  /// The owner: no more reads ahead; waits for one under way. Its bytes,
  /// if any, are dropped (the input is not read further).
  void Stop();

  /// Any other thread: reads the next blocks while fewer than kAhead
  /// wait for the owner and nobody else is reading. True when it read.
  bool Help();

  /// The bytes of the buffers it holds, read ahead or free (capacities):
  /// for tests that bound its memory.
  size_t held_bytes();

  /// The helper's block, the room kept in front of it for the end of the
  /// owner's last line (a longer one is copied the other way round), and
  /// how many of its blocks may wait for the owner.
  static constexpr size_t kBlock = size_t{1} << 20;
  static constexpr size_t kRoom = size_t{64} << 10;
  static constexpr size_t kAhead = 2;

 private:
  struct Block {
    std::vector<char> bytes;  // produce_'s at kRoom
    long got = 0;             // what produce_ returned
    std::string error;        // and its error
  };
  /// Under mu_: the helper may read now.
  bool Wanted() const {
    return started_ && !ended_ && !reading_ && ready_.size() < kAhead;
  }
  long Take(Block&& block, std::vector<char>* buf, size_t* begin, size_t* end, size_t want,
            std::string* error);
  static void Fit(std::vector<char>* buf, size_t size);

  Produce produce_;
  std::function<void()> wake_;
  std::mutex mu_;
  std::condition_variable read_;  // a read ended
  bool started_ = false;          // between Start() and Stop()
  bool ended_ = false;            // a read met the end or an error
  bool reading_ = false;          // a thread is in produce_
  std::deque<Block> ready_;       // read by the helper, in input order
  std::vector<std::vector<char>> free_;  // buffers for the helper
};

}  // namespace lockgraph
