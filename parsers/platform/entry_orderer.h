// Puts the entries of a cloud log export back into the order the server
// wrote them. Consoles list newest first (Cloud Logging, Log Analytics);
// sinks deliver nearly in order with a little jitter. The orderer looks at
// the first entries' timestamps: mostly decreasing -> the export is newest
// first, and entries are spilled to a temporary file and replayed backwards
// at the end; otherwise they pass through a sliding window of
// `window` entries sorted by timestamp. Memory stays bounded either way.
// See docs/postgresql.md#cloud-exports.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lockgraph {

/// A timestamp made comparable as a string: "2022-07-30T05:04:30.0626Z" and
/// "2022-07-30 05:04:30.062 UTC" both become "2022-07-30T05:04:30.062600000"
/// plus what followed the fraction (the zone), fraction padded to 9 digits;
/// "" stays "".
std::string SortableTime(std::string_view time);

/// Not thread-safe; not copyable.
class EntryOrderer {
 public:
  /// Receives the entries in order: the input line an entry came from and
  /// its payload as given to Add().
  using Deliver = std::function<void(uint64_t line_no, std::string_view payload)>;

  explicit EntryOrderer(Deliver deliver, size_t window = 512);
  ~EntryOrderer();
  EntryOrderer(const EntryOrderer&) = delete;
  EntryOrderer& operator=(const EntryOrderer&) = delete;

  /// `time` from SortableTime(); an entry without one sorts with the entry
  /// before it.
  void Add(std::string time, uint64_t line_no, std::string payload);
  /// The input paused (a growing export: `lockgraph follow`): a file that
  /// grows is oldest first, so an undecided order is taken as that, and
  /// every entry held is delivered. An entry older than those delivered may
  /// still come; it is delivered in its turn, out of place. Nothing for a
  /// newest-first input (a download, read backwards at Finish).
  void Flush();
  /// Delivers everything still held.
  void Finish();
  /// True once the input was found to be newest first.
  bool newest_first() const { return mode_ == Mode::kNewestFirst; }

 private:
  enum class Mode { kUndecided, kOldestFirst, kNewestFirst };
  struct Item {
    std::string time;
    uint64_t line_no = 0;
    std::string payload;
  };
  void Decide();
  void Window(Item&& item);
  void Spill(const Item& item);
  void Replay();

  Deliver deliver_;
  size_t window_;
  Mode mode_ = Mode::kUndecided;
  std::vector<Item> first_;  // held until the order is decided
  std::map<std::pair<std::string, uint64_t>, Item> sorted_;  // (time, arrival) -> item
  uint64_t arrival_ = 0;
  std::string last_time_;
  std::FILE* spill_ = nullptr;
  std::vector<Item> spill_memory_;  // only when no temporary file can be made
  std::vector<uint64_t> offsets_;
};

}  // namespace lockgraph
