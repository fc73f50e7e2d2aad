// What a block read on several threads needs whatever its reader: the cut
// into parts and lines, what a part's reader found until the real reader takes it
// over, and how the parts went (stderr_chunks.h, syslog_blocks.h).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "model/log_record.h"

namespace lockgraph {

/// Cuts `lines` into at most `n` parts of about equal size, each but the
/// last ending after a '\n': calls set(i, part) for each; returns how many.
template <typename Set>
size_t CutParts(std::string_view lines, size_t n, Set&& set) {
  size_t count = 0;
  for (size_t begin = 0; begin < lines.size() && count < n; ++count) {
    size_t end = lines.size();
    if (count + 1 < n) {
      const size_t nl = lines.find('\n', std::max(begin, lines.size() / n * (count + 1)));
      if (nl != std::string_view::npos) end = nl + 1;
    }
    set(count, lines.substr(begin, end - begin));
    begin = end;
  }
  return count;
}

/// Calls fn(line) for each line of `text` (the last may lack its '\n')
/// while fn returns true.
template <typename Fn>
void EachLineOf(std::string_view text, Fn&& fn) {
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    if (!fn(text.substr(pos, end - pos))) return;
    pos = end + 1;
  }
}

/// What a part's reader found, in order, its line numbers counted from the
/// part's first line: records, and lines not understood as views into the
/// block (which outlives the part's merge). At most kMaxBytes: past it the
/// part must be read again by the real reader (a part of lines not
/// understood at --threads 64 would else hold many times its size).
class PartFindings {
 public:
  static constexpr size_t kMaxBytes = 1 << 20;

  void Clear() {
    items_.clear();
    records_.clear();
    bytes_ = 0;
    full_ = false;
  }
  void AddRecord(LogRecord&& record) {
    if (!Room(sizeof(LogRecord) + record.message.size() + record.detail.size() +
              record.hint.size() + record.context.size() + record.statement.size()))
      return;
    items_.push_back({0, {}, records_.size()});
    records_.push_back(std::move(record));
  }
  void AddUnparsed(uint64_t line_no, std::string_view text) {
    if (Room(sizeof(Item))) items_.push_back({line_no, text, kNoRecord});
  }
  /// Findings were dropped: the part must be read again.
  bool full() const { return full_; }
  /// How many findings so far.
  size_t size() const { return items_.size(); }
  /// Hands the findings from the `from`-th on to on_record(LogRecord&&) and
  /// on_unparsed(line_no, text), in order, line numbers plus `shift`.
  template <typename OnRecord, typename OnUnparsed>
  void Replay(size_t from, uint64_t shift, OnRecord&& on_record, OnUnparsed&& on_unparsed) {
    for (size_t i = from; i < items_.size(); ++i) {
      const Item& item = items_[i];
      if (item.record == kNoRecord) {
        on_unparsed(item.line_no + shift, item.text);
        continue;
      }
      LogRecord& record = records_[item.record];
      record.source.first_line += shift;
      record.source.last_line += shift;
      on_record(std::move(record));
    }
  }

 private:
  struct Item {
    uint64_t line_no;
    std::string_view text;  // a line not understood, or
    size_t record;          // the index of a record (kNoRecord: none)
  };
  static constexpr size_t kNoRecord = SIZE_MAX;
  bool Room(size_t n) {
    bytes_ += n;
    full_ = full_ || bytes_ > kMaxBytes;
    return !full_;
  }

  std::vector<Item> items_;
  std::vector<LogRecord> records_;
  size_t bytes_ = 0;
  bool full_ = false;
};

/// How the parts of a reader's blocks went: taken over, or read again.
struct PartStats {
  uint64_t parts = 0;        // parts read on a thread of their own
  uint64_t taken_over = 0;   // of them, taken over at a point
  uint64_t lines_again = 0;  // lines the real reader read of those parts
};

}  // namespace lockgraph
