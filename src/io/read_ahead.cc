// See read_ahead.h.
#include "io/read_ahead.h"

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
    return Take(std::move(block), buf, begin, end, error);
  }
  // Nothing read ahead: read here, as without a helper.
  reading_ = true;
  lock.unlock();
  if (buf->size() < *end + want) buf->resize(*end + want);
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

long ReadAhead::Take(Block&& block, std::vector<char>* buf, size_t* begin, size_t* end,
                     std::string* error) {
  const long n = block.got;
  if (n < 0) *error = block.error;
  if (n > 0) {
    const size_t rest = *end - *begin;
    if (rest <= kRoom) {
      // The end of the owner's last line goes in front of the block.
      std::memcpy(block.bytes.data() + kRoom - rest, buf->data() + *begin, rest);
      buf->swap(block.bytes);
      *begin = kRoom - rest;
      *end = kRoom + size_t(n);
    } else {
      if (buf->size() < *end + size_t(n)) buf->resize(*end + size_t(n));
      std::memcpy(buf->data() + *end, block.bytes.data() + kRoom, size_t(n));
      *end += size_t(n);
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  free_.push_back(std::move(block.bytes));
  return n;
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
