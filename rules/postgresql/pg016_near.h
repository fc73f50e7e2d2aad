// PG016's pairing of one table's duplicate-key errors with the lock waits
// and deadlocks near them in time (pg016_rerun_duplicate_key.cc), by
// sorting and binary search: the error-by-event double loop it replaces
// grew with the product of the two counts, a few seconds at 10 GiB of log.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lockgraph {

struct NearError {
  std::optional<int64_t> ms;
  std::string_view pid;         // "" when unknown
  std::string_view constraint;
};

struct NearSpan {  // a lock wait or deadlock, from first_ms to last_ms
  std::optional<int64_t> first_ms, last_ms;
  std::string_view pid;
};

/// One constraint's errors and the lock events near them.
struct NearGroup {
  std::vector<size_t> errors;  // indices of its errors with an event near, ascending
  std::vector<size_t> spans;   // the events near them, by their first near error, then index
  bool after_own_wait = false; // an error's backend is the waiter of an event near it
};

/// An error is near an event when both times are known and it lies within
/// `near_ms` of the event's span. Only constraints with an error near an
/// event appear, in std::map order.
std::map<std::string, NearGroup> PairNear(const std::vector<NearError>& errors,
                                          const std::vector<NearSpan>& spans, int64_t near_ms);

/// Sorted times of errors: is one within `near_ms` of the span?
bool AnyNear(const std::vector<int64_t>& sorted_ms, const NearSpan& span, int64_t near_ms);

}  // namespace lockgraph
