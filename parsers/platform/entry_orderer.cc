// See entry_orderer.h.
#include "parsers/platform/entry_orderer.h"

#include <cctype>

namespace lockgraph {
namespace {

constexpr size_t kDecideAfter = 32;  // entries looked at to tell the order

void WriteU64(std::FILE* f, uint64_t v) { std::fwrite(&v, sizeof v, 1, f); }
uint64_t ReadU64(std::FILE* f) {
  uint64_t v = 0;
  if (std::fread(&v, sizeof v, 1, f) != 1) return 0;
  return v;
}

}  // namespace

std::string SortableTime(std::string_view time) {
  if (time.empty()) return "";  // Add() then sorts it with the entry before
  std::string out(time.substr(0, 19));
  if (out.size() > 10 && out[10] == ' ') out[10] = 'T';
  size_t i = 19;
  std::string fraction;
  if (i < time.size() && time[i] == '.') {
    for (++i; i < time.size() && std::isdigit(static_cast<unsigned char>(time[i])); ++i)
      fraction.push_back(time[i]);
  }
  fraction.resize(9, '0');
  out += '.';
  out += fraction;
  if (i < time.size()) out.append(time.substr(i));
  return out;
}

EntryOrderer::EntryOrderer(Deliver deliver, size_t window)
    : deliver_(std::move(deliver)), window_(window ? window : 1) {}

EntryOrderer::~EntryOrderer() {
  if (spill_) std::fclose(spill_);
}

void EntryOrderer::Add(std::string time, uint64_t line_no, std::string payload) {
  if (time.empty()) time = last_time_;
  else last_time_ = time;
  Item item{std::move(time), line_no, std::move(payload)};
  switch (mode_) {
    case Mode::kUndecided:
      first_.push_back(std::move(item));
      if (first_.size() >= kDecideAfter) Decide();
      break;
    case Mode::kOldestFirst: Window(std::move(item)); break;
    case Mode::kNewestFirst: Spill(item); break;
  }
}

void EntryOrderer::Decide() {
  size_t up = 0, down = 0;
  for (size_t i = 1; i < first_.size(); ++i) {
    if (first_[i - 1].time < first_[i].time) ++up;
    if (first_[i - 1].time > first_[i].time) ++down;
  }
  mode_ = down > up ? Mode::kNewestFirst : Mode::kOldestFirst;
  if (mode_ == Mode::kNewestFirst) spill_ = std::tmpfile();
  std::vector<Item> first = std::move(first_);
  first_.clear();
  for (Item& item : first) {
    if (mode_ == Mode::kOldestFirst) Window(std::move(item));
    else Spill(item);
  }
}

void EntryOrderer::Window(Item&& item) {
  auto key = std::make_pair(item.time, arrival_++);
  sorted_.emplace(std::move(key), std::move(item));
  if (sorted_.size() > window_) {
    auto it = sorted_.begin();
    deliver_(it->second.line_no, it->second.payload);
    sorted_.erase(it);
  }
}

void EntryOrderer::Spill(const Item& item) {
  if (!spill_) {
    spill_memory_.push_back(item);
    return;
  }
  offsets_.push_back(uint64_t(std::ftell(spill_)));
  WriteU64(spill_, item.line_no);
  WriteU64(spill_, item.time.size());
  WriteU64(spill_, item.payload.size());
  std::fwrite(item.time.data(), 1, item.time.size(), spill_);
  std::fwrite(item.payload.data(), 1, item.payload.size(), spill_);
}

void EntryOrderer::Replay() {
  // Backwards: the newest-first export read from its end is oldest first;
  // the window then mends what is merely out of place.
  for (size_t i = spill_memory_.size(); i-- > 0;) Window(std::move(spill_memory_[i]));
  spill_memory_.clear();
  if (!spill_) return;
  std::fflush(spill_);
  for (size_t i = offsets_.size(); i-- > 0;) {
    std::fseek(spill_, long(offsets_[i]), SEEK_SET);
    Item item;
    item.line_no = ReadU64(spill_);
    item.time.resize(ReadU64(spill_));
    item.payload.resize(ReadU64(spill_));
    if (std::fread(item.time.data(), 1, item.time.size(), spill_) != item.time.size() ||
        std::fread(item.payload.data(), 1, item.payload.size(), spill_) != item.payload.size())
      break;
    Window(std::move(item));
  }
  offsets_.clear();
}

void EntryOrderer::Flush() {
  if (mode_ == Mode::kUndecided) {
    mode_ = Mode::kOldestFirst;
    std::vector<Item> first = std::move(first_);
    first_.clear();
    for (Item& item : first) Window(std::move(item));
  }
  if (mode_ != Mode::kOldestFirst) return;
  for (auto& [key, item] : sorted_) deliver_(item.line_no, item.payload);
  sorted_.clear();
}

void EntryOrderer::Finish() {
  if (mode_ == Mode::kUndecided) Decide();
  if (mode_ == Mode::kNewestFirst) Replay();
  for (auto& [key, item] : sorted_) deliver_(item.line_no, item.payload);
  sorted_.clear();
}

}  // namespace lockgraph
