// See event_spool.h.
#include "emit/event_spool.h"

#include <algorithm>
#include <numeric>

namespace lockgraph {

EventSpool::EventSpool(size_t memory_budget) : budget_(memory_budget) {}

EventSpool::~EventSpool() {
  if (file_) std::fclose(file_);
}

bool EventSpool::Spill() {
  // tmpfile() is unlinked at once: nothing is left behind, even after a crash.
  if (!file_) {
    file_ = std::tmpfile();
    if (!file_) return false;
  } else if (std::fseek(file_, 0, SEEK_END) != 0) {  // reads may have moved it
    return false;
  }
  if (!memory_.empty() && std::fwrite(memory_.data(), 1, memory_.size(), file_) != memory_.size())
    return false;
  file_size_ += memory_.size();
  memory_.clear();
  unflushed_ = true;
  return true;
}

bool EventSpool::Add(uint32_t input, uint64_t first_line, std::string_view text) {
  if (failed_) return false;
  // Offsets count from the start of the file, then of memory_: the bytes in
  // memory_ are the file's tail once they are spilled.
  entries_.push_back({first_line, file_size_ + memory_.size(), input, uint32_t(text.size())});
  memory_.append(text);
  if (memory_.size() > budget_ && !Spill()) {
    failed_ = true;
    return false;
  }
  return true;
}

std::vector<uint32_t> EventSpool::SortedOrder() const {
  std::vector<uint32_t> order(entries_.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const Entry& x = entries_[a];
    const Entry& y = entries_[b];
    if (x.input != y.input) return x.input < y.input;
    return x.first_line < y.first_line;
  });
  return order;
}

// Points *text at the entry's bytes: in memory_, or read into *buffer.
bool EventSpool::ReadEntry(const Entry& e, std::string* buffer, std::string_view* text) {
  if (e.offset >= file_size_) {
    *text = std::string_view(memory_).substr(e.offset - file_size_, e.length);
    return true;
  }
  if (unflushed_ && std::fflush(file_) != 0) return false;
  unflushed_ = false;
  buffer->resize(e.length);
  if (std::fseek(file_, long(e.offset), SEEK_SET) != 0 ||
      std::fread(buffer->data(), 1, e.length, file_) != e.length)
    return false;
  *text = *buffer;
  return true;
}

bool EventSpool::ForEachSorted(const std::function<void(std::string_view)>& fn) {
  if (failed_) return false;
  std::string buffer;
  for (uint32_t i : SortedOrder()) {
    std::string_view text;
    if (!ReadEntry(entries_[i], &buffer, &text)) return false;
    fn(text);
  }
  return true;
}

bool EventSpool::Read(uint32_t index, std::string* text) {
  if (failed_ || index >= entries_.size()) return false;
  std::string buffer;
  std::string_view view;
  if (!ReadEntry(entries_[index], &buffer, &view)) return false;
  text->assign(view);
  return true;
}

}  // namespace lockgraph
