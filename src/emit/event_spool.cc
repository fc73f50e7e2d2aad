// See event_spool.h.
#include "emit/event_spool.h"

#include <algorithm>
#include <numeric>

namespace lockgraph {

EventSpool::EventSpool(size_t memory_budget) : texts_(memory_budget) {}

EventSpool::~EventSpool() = default;

bool EventSpool::Add(uint32_t input, uint64_t first_line, std::string_view text) {
  if (failed_) return false;
  bool spill_failed = false;
  const TextSpool::Ref ref = texts_.Add(text, &spill_failed);
  entries_.push_back({first_line, ref.offset, input, ref.length});
  if (spill_failed) failed_ = true;
  return !failed_;
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

bool EventSpool::ForEachSorted(const std::function<void(std::string_view)>& fn) {
  if (failed_) return false;
  std::string buffer;
  for (uint32_t i : SortedOrder()) {
    std::string_view text;
    if (!texts_.Read(entries_[i].text(), &buffer, &text)) return false;
    fn(text);
  }
  return true;
}

bool EventSpool::Read(uint32_t index, std::string* text) {
  if (failed_ || index >= entries_.size()) return false;
  std::string buffer;
  std::string_view view;
  if (!texts_.Read(entries_[index].text(), &buffer, &view)) return false;
  text->assign(view);
  return true;
}

}  // namespace lockgraph
