// See pg_lock_rows.h. A packed row: its line, a byte of flags, its pid and
// blocking_pids when present, then each text column of PgLockTextColumns()
// as a number: 0 for "", length * 2 followed by the text, or length * 2 + 1
// followed by how far back from the row's start the same text already is
// (the row before's value, in the same block).
#include "parsers/postgresql/pg_lock_rows.h"

#include <algorithm>
#include <cstring>

namespace lockgraph {
namespace {

enum Flags : uint8_t { kPid = 1, kGranted = 2, kFastpath = 4, kBlockingPids = 8 };

constexpr size_t kBlock = 1 << 20;
constexpr size_t kMaxVarint = 10;

char* PutNumber(char* at, uint64_t v) {
  while (v >= 0x80) {
    *at++ = char(v | 0x80);
    v >>= 7;
  }
  *at++ = char(v);
  return at;
}

uint64_t GetNumber(const char*& at) {
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    const uint8_t b = uint8_t(*at++);
    v |= uint64_t(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
}

uint64_t Zigzag(int64_t v) { return (uint64_t(v) << 1) ^ uint64_t(v >> 63); }
int64_t Unzigzag(uint64_t v) { return int64_t(v >> 1) ^ -int64_t(v & 1); }

}  // namespace

PgLockRows::PgLockRows(std::initializer_list<PgLockRow> rows) {
  for (const PgLockRow& r : rows) push_back(r);
}

PgLockRows::PgLockRows(const PgLockRows& other) {
  for (PgLockRow r : other) push_back(r);
}

PgLockRows& PgLockRows::operator=(const PgLockRows& other) {
  if (this != &other) {
    PgLockRows copy(other);
    swap(copy);
  }
  return *this;
}

PgLockRows& PgLockRows::operator=(PgLockRows&& other) noexcept {
  PgLockRows taken(std::move(other));
  swap(taken);
  return *this;
}

void PgLockRows::swap(PgLockRows& other) noexcept {
  blocks_.swap(other.blocks_);
  std::swap(block_size_, other.block_size_);
  std::swap(free_, other.free_);
  std::swap(left_, other.left_);
  std::swap(used_, other.used_);
  starts_.swap(other.starts_);
  std::swap(last_, other.last_);
}

char* PgLockRows::Room(size_t bytes) {
  if (bytes > left_) {
    block_size_ = std::max(kBlock, bytes);
    blocks_.push_back(std::make_unique<char[]>(block_size_));
    free_ = blocks_.back().get();
    left_ = block_size_;
  }
  return free_;
}

bool PgLockRows::InLastBlock(std::string_view text) const {
  if (blocks_.empty() || text.empty()) return false;
  const char* begin = blocks_.back().get();
  return text.data() >= begin && text.data() + text.size() <= begin + block_size_;
}

void PgLockRows::push_back(const PgLockRow& row) {
  const std::vector<int64_t> none;
  const std::vector<int64_t>& pids = row.blocking_pids ? *row.blocking_pids : none;
  size_t most = 1 + 3 * kMaxVarint + pids.size() * kMaxVarint;
  for (const PgTextColumn& c : PgLockTextColumns()) most += 2 * kMaxVarint + (row.*c.field).size();
  char* const start = Room(most);
  char* at = start;
  at = PutNumber(at, row.line);
  *at++ = char((row.pid ? kPid : 0) | (row.granted ? kGranted : 0) |
               (row.fastpath ? kFastpath : 0) | (row.blocking_pids ? kBlockingPids : 0));
  if (row.pid) at = PutNumber(at, Zigzag(*row.pid));
  if (row.blocking_pids) {
    at = PutNumber(at, pids.size());
    for (int64_t pid : pids) at = PutNumber(at, Zigzag(pid));
  }
  const bool first = starts_.empty();
  for (const PgTextColumn& c : PgLockTextColumns()) {
    const std::string_view text = row.*c.field;
    std::string_view& kept = last_.*c.field;
    if (text.empty()) {
      at = PutNumber(at, 0);
      kept = {};
    } else if (!first && kept == text && InLastBlock(kept)) {
      at = PutNumber(at, text.size() * 2 + 1);
      at = PutNumber(at, uint64_t(start - kept.data()));
    } else {
      at = PutNumber(at, text.size() * 2);
      std::memcpy(at, text.data(), text.size());
      kept = {at, text.size()};
      at += text.size();
    }
  }
  last_.line = row.line;
  last_.pid = row.pid;
  last_.granted = row.granted;
  last_.fastpath = row.fastpath;
  last_.blocking_pids = row.blocking_pids;
  starts_.push_back(start);
  const size_t size = size_t(at - start);
  free_ += size;
  left_ -= size;
  used_ += size;
}

PgLockRow PgLockRows::operator[](size_t i) const {
  const char* const start = starts_[i];
  const char* at = start;
  PgLockRow row;
  row.line = GetNumber(at);
  const uint8_t flags = uint8_t(*at++);
  if (flags & kPid) row.pid = Unzigzag(GetNumber(at));
  row.granted = flags & kGranted;
  row.fastpath = flags & kFastpath;
  if (flags & kBlockingPids) {
    std::vector<int64_t> pids(GetNumber(at));
    for (int64_t& pid : pids) pid = Unzigzag(GetNumber(at));
    row.blocking_pids = std::move(pids);
  }
  for (const PgTextColumn& c : PgLockTextColumns()) {
    const uint64_t tag = GetNumber(at);
    if (tag == 0) continue;
    const size_t size = tag / 2;
    if (tag & 1) {
      row.*c.field = {start - GetNumber(at), size};
    } else {
      row.*c.field = {at, size};
      at += size;
    }
  }
  return row;
}

}  // namespace lockgraph
