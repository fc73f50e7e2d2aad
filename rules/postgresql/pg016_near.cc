// See pg016_near.h.
#include "rules/postgresql/pg016_near.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace lockgraph {
namespace {

struct Timed {
  int64_t ms;
  size_t index;
  bool operator<(const Timed& o) const { return ms != o.ms ? ms < o.ms : index < o.index; }
};

/// The smallest `index` of a range of `items`: a segment tree, 2 n entries
/// and O(log n) a query. (A sparse table answered in O(1) but took n log n
/// entries: 14 MB for 100,000 errors, PG016's largest allocation at 10 GiB.)
class RangeMin {
 public:
  explicit RangeMin(const std::vector<Timed>& items) : n_(items.size()), tree_(2 * n_) {
    for (size_t i = 0; i < n_; ++i) tree_[n_ + i] = items[i].index;
    for (size_t i = n_; i-- > 1;) tree_[i] = std::min(tree_[2 * i], tree_[2 * i + 1]);
  }
  /// Over [a, b), a < b.
  size_t Min(size_t a, size_t b) const {
    size_t m = SIZE_MAX;
    for (a += n_, b += n_; a < b; a /= 2, b /= 2) {
      if (a & 1) m = std::min(m, tree_[a++]);
      if (b & 1) m = std::min(m, tree_[--b]);
    }
    return m;
  }

 private:
  size_t n_;
  std::vector<size_t> tree_;
};

// The range of `sorted` within [lo, hi].
std::pair<size_t, size_t> Within(const std::vector<Timed>& sorted, int64_t lo, int64_t hi) {
  auto a = std::lower_bound(sorted.begin(), sorted.end(), lo,
                            [](const Timed& t, int64_t v) { return t.ms < v; });
  auto b = std::upper_bound(a, sorted.end(), hi, [](int64_t v, const Timed& t) { return v < t.ms; });
  return {size_t(a - sorted.begin()), size_t(b - sorted.begin())};
}

bool Bounds(const NearSpan& span, int64_t near_ms, int64_t* lo, int64_t* hi) {
  if (!span.first_ms || !span.last_ms) return false;
  *lo = *span.first_ms - near_ms;
  *hi = *span.last_ms + near_ms;
  return *lo <= *hi;
}

// One constraint's group: `errors` its timed errors sorted; `own` the
// times of those of each backend, sorted.
NearGroup PairConstraint(const std::vector<Timed>& errors,
                         const std::map<std::string_view, std::vector<int64_t>>& own,
                         const std::vector<NearSpan>& spans, int64_t near_ms) {
  const RangeMin first(errors);
  std::vector<int> cover(errors.size() + 1, 0);  // +1 where a span's errors start, -1 after
  std::vector<std::pair<size_t, size_t>> near;   // (first near error, span)
  NearGroup group;
  for (size_t j = 0; j < spans.size(); ++j) {
    int64_t lo, hi;
    if (!Bounds(spans[j], near_ms, &lo, &hi)) continue;
    const auto [a, b] = Within(errors, lo, hi);
    if (a == b) continue;
    near.emplace_back(first.Min(a, b), j);
    ++cover[a];
    --cover[b];
    if (group.after_own_wait || spans[j].pid.empty()) continue;
    auto it = own.find(spans[j].pid);
    if (it != own.end()) group.after_own_wait = AnyNear(it->second, spans[j], near_ms);
  }
  int covered = 0;
  for (size_t i = 0; i < errors.size(); ++i)
    if ((covered += cover[i]) > 0) group.errors.push_back(errors[i].index);
  std::sort(group.errors.begin(), group.errors.end());
  std::sort(near.begin(), near.end());
  for (const auto& [unused, j] : near) group.spans.push_back(j);
  return group;
}

}  // namespace

bool AnyNear(const std::vector<int64_t>& sorted_ms, const NearSpan& span, int64_t near_ms) {
  int64_t lo, hi;
  if (!Bounds(span, near_ms, &lo, &hi)) return false;
  auto it = std::lower_bound(sorted_ms.begin(), sorted_ms.end(), lo);
  return it != sorted_ms.end() && *it <= hi;
}

std::map<std::string, NearGroup> PairNear(const std::vector<NearError>& errors,
                                          const std::vector<NearSpan>& spans, int64_t near_ms) {
  std::map<std::string_view, std::vector<Timed>> by_constraint;
  std::map<std::string_view, std::map<std::string_view, std::vector<int64_t>>> by_pid;
  for (size_t i = 0; i < errors.size(); ++i) {
    const NearError& e = errors[i];
    if (!e.ms) continue;
    by_constraint[e.constraint].push_back({*e.ms, i});
    if (!e.pid.empty()) by_pid[e.constraint][e.pid].push_back(*e.ms);
  }
  std::map<std::string, NearGroup> out;
  for (auto& [constraint, list] : by_constraint) {
    std::sort(list.begin(), list.end());
    std::map<std::string_view, std::vector<int64_t>>& own = by_pid[constraint];
    for (auto& [pid, times] : own) std::sort(times.begin(), times.end());
    NearGroup group = PairConstraint(list, own, spans, near_ms);
    if (!group.spans.empty()) out.emplace(std::string(constraint), std::move(group));
  }
  return out;
}

}  // namespace lockgraph
