// Rendered events, kept in log order without keeping the events: an emitter
// that writes one whole document (json) renders each event as it is made and
// puts the text here; past a memory budget the texts go to an unlinked
// temporary file. At the end they come back sorted by where each event
// starts, so peak memory stays flat whatever the size of the log
// (docs/performance.md#memory): about 24 bytes per event remain in memory.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "io/text_spool.h"

namespace lockgraph {

/// Not thread-safe, not copyable.
class EventSpool {
 public:
  /// `memory_budget`: bytes of text held in memory before spilling.
  explicit EventSpool(size_t memory_budget = 1 << 20);
  ~EventSpool();
  EventSpool(const EventSpool&) = delete;
  EventSpool& operator=(const EventSpool&) = delete;

  /// Adds the text of one event of input number `input` (inputs in the
  /// order they are read) that starts at line `first_line`. Returns false
  /// when the temporary file cannot be written (then nothing is kept).
  bool Add(uint32_t input, uint64_t first_line, std::string_view text);

  size_t size() const { return entries_.size(); }
  bool spilled() const { return texts_.spilled(); }

  /// Calls `fn` with each text in log order: by input, then first line,
  /// then the order they were added. Returns false on a read error.
  bool ForEachSorted(const std::function<void(std::string_view)>& fn);

  /// The indexes (0 for the first text added) in log order, as ForEachSorted.
  std::vector<uint32_t> SortedOrder() const;

  /// The text added as number `index` (text): for an emitter that writes
  /// some texts out of log order (text: a deadlock group's first member).
  /// Returns false on a read error.
  bool Read(uint32_t index, std::string* text);

 private:
  struct Entry {  // 24 bytes: a Ref's two fields apart
    uint64_t first_line;
    uint64_t offset;
    uint32_t input;
    uint32_t length;
    TextSpool::Ref text() const { return {offset, length}; }
  };

  TextSpool texts_;
  std::vector<Entry> entries_;
  bool failed_ = false;
};

}  // namespace lockgraph
