// See pg_row_index.h.
#include "parsers/postgresql/pg_row_index.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "parsers/postgresql/pg_blocking.h"

namespace lockgraph {

PgRowIndex IndexPgRows(const PgLockRows& rows) {
  PgRowIndex index;
  const size_t n = rows.size();
  index.process.reserve(n);
  index.lock.reserve(n);
  // Numbers in order of first sight, then renumbered in key order.
  std::unordered_map<std::string, uint32_t> numbers;
  std::vector<const std::string*> keys;
  index.waits.reserve(n);
  index.names_mode.reserve(n);
  for (const PgLockRow& row : rows) {
    index.process.push_back(PgRowProcessId(row));
    index.waits.push_back(!row.granted);
    index.names_mode.push_back(!row.mode.empty());
    auto [it, inserted] = numbers.try_emplace(PgLockRowKey(row), uint32_t(keys.size()));
    if (inserted) keys.push_back(&it->first);
    index.lock.push_back(it->second);
  }
  std::vector<uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return *keys[a] < *keys[b]; });
  std::vector<uint32_t> renumber(keys.size());
  for (uint32_t i = 0; i < order.size(); ++i) renumber[order[i]] = i;
  // Group the rows by lock: a counting sort keeps row order in each group.
  index.lock_begin.assign(keys.size() + 1, 0);
  index.contested.assign(keys.size(), false);
  for (size_t i = 0; i < n; ++i) {
    uint32_t lock = renumber[index.lock[i]];
    index.lock[i] = lock;
    ++index.lock_begin[lock + 1];
    if (index.waits[i]) index.contested[lock] = true;
  }
  std::partial_sum(index.lock_begin.begin(), index.lock_begin.end(), index.lock_begin.begin());
  index.by_lock.resize(n);
  std::vector<uint32_t> next(index.lock_begin.begin(), index.lock_begin.end() - 1);
  for (size_t i = 0; i < n; ++i) index.by_lock[next[index.lock[i]]++] = uint32_t(i);
  return index;
}

}  // namespace lockgraph
