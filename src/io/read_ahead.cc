// See read_ahead.h.
#include "io/read_ahead.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace lockgraph {

ReadAhead::ReadAhead(Produce produce, std::function<void()> wake)
    : produce_(std::move(produce)), wake_(std::move(wake)) {}

void ReadAhead::Start() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    started_ = true;
  }
  wake_();
}

void ReadAhead::Stop() {
  std::unique_lock<std::mutex> lock(mu_);
  started_ = false;
  read_.wait(lock, [this] { return !reading_; });
  ready_.clear();
}

long ReadAhead::Next(std::vector<char>* buf, size_t* begin, size_t* end, size_t want,
                     std::string* error) {
  std::unique_lock<std::mutex> lock(mu_);
  // A read under way comes first: it holds the input's next bytes.
  read_.wait(lock, [this] { return !reading_ || !ready_.empty(); });
  if (!ready_.empty()) {
    Block block = std::move(ready_.front());
    ready_.pop_front();
    const bool wake = Wanted();
    lock.unlock();
    if (wake) wake_();
    return Take(std::move(block), buf, begin, end, want, error);
  }
  // Nothing read ahead: read here, as without a helper.
  reading_ = true;
  lock.unlock();
  Fit(buf, *end + want);
  const long n = produce_(buf->data() + *end, want, error);
  if (n > 0) *end += size_t(n);
  lock.lock();
  reading_ = false;
  if (n <= 0) ended_ = true;
  const bool wake = Wanted();
  lock.unlock();
  if (wake) wake_();
  return n;
}

// `buf` at least `size` bytes long, grown to that size exactly (not by
// vector's doubling).
void ReadAhead::Fit(std::vector<char>* buf, size_t size) {
  if (buf->size() >= size) return;
  if (buf->capacity() < size) buf->reserve(size);
  buf->resize(size);
}

long ReadAhead::Take(Block&& block, std::vector<char>* buf, size_t* begin, size_t* end,
                     size_t want, std::string* error) {
  const long n = block.got;
  if (n < 0) *error = block.error;
  if (n > 0) {
    const size_t rest = *end - *begin;
    if (rest <= kRoom && size_t(n) >= want) {
      // The end of the owner's last line goes in front of the block, which
      // holds all it asked for.
      std::memcpy(block.bytes.data() + kRoom - rest, buf->data() + *begin, rest);
      buf->swap(block.bytes);
      *begin = kRoom - rest;
      *end = kRoom + size_t(n);
    } else {
      // The owner gathers a block larger than the helper's: room for all of
      // it at once, the helper's bytes copied in. (Swapped in, the helper's
      // 1 MiB buffer was then grown step by step to the owner's 4 to 16 MiB,
      // and the owner's buffer went to free_ and round the helper's reads:
      // with a 1 GiB syslog file at --threads 9, 38 MB of buffers by massif,
      // peak RSS 76 MB; now 52 MB.)
      Fit(buf, *end + std::max(want, size_t(n)));
      std::memcpy(buf->data() + *end, block.bytes.data() + kRoom, size_t(n));
      *end += size_t(n);
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  free_.push_back(std::move(block.bytes));
  return n;
}

size_t ReadAhead::held_bytes() {
  std::lock_guard<std::mutex> lock(mu_);
  size_t bytes = 0;
  for (const Block& b : ready_) bytes += b.bytes.capacity();
  for (const std::vector<char>& b : free_) bytes += b.capacity();
  return bytes;
}

bool ReadAhead::Help() {
  bool did = false;
  std::unique_lock<std::mutex> lock(mu_);
  while (Wanted()) {
    reading_ = true;
    Block block;
    if (!free_.empty()) {
      block.bytes = std::move(free_.back());
      free_.pop_back();
    }
    lock.unlock();
    if (block.bytes.size() < kRoom + kBlock) block.bytes.resize(kRoom + kBlock);
    block.got = produce_(block.bytes.data() + kRoom, kBlock, &block.error);
    lock.lock();
    reading_ = false;
    if (block.got <= 0) ended_ = true;
    ready_.push_back(std::move(block));
    read_.notify_one();
    did = true;
  }
  return did;
}

}  // namespace lockgraph
