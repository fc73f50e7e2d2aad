// The rows of a pg_locks snapshot, packed: a 100,000-waiter snapshot has
// 130,000 rows of 30 columns, which as PgLockRow structs (512 bytes of
// views each) took more memory than their text. Each row is kept as a few
// bytes of numbers and its columns' text, in blocks this container owns; a
// value the row before had in the same column (sampled_at, locktype, mode,
// state, ...) is kept once. A row is unpacked into a PgLockRow when read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <string_view>
#include <vector>

#include "parsers/postgresql/pg_lock_row.h"

namespace lockgraph {

/// The rows of a snapshot, in input order. Rows are read by value: their
/// columns view this container's text, valid while it lives (moving it
/// keeps them valid; copying copies the text). Not thread-safe.
class PgLockRows {
 public:
  class const_iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = PgLockRow;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = PgLockRow;
    const_iterator(const PgLockRows* rows, size_t i) : rows_(rows), i_(i) {}
    PgLockRow operator*() const { return (*rows_)[i_]; }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const const_iterator& o) const { return i_ == o.i_; }
    bool operator!=(const const_iterator& o) const { return i_ != o.i_; }

   private:
    const PgLockRows* rows_;
    size_t i_;
  };

  PgLockRows() = default;
  PgLockRows(std::initializer_list<PgLockRow> rows);
  PgLockRows(const PgLockRows& other);
  PgLockRows& operator=(const PgLockRows& other);
  PgLockRows(PgLockRows&& other) noexcept { swap(other); }
  PgLockRows& operator=(PgLockRows&& other) noexcept;

  /// Adds a copy of `row` and of the text its columns view, which need to
  /// live only until this returns.
  void push_back(const PgLockRow& row);
  size_t size() const { return starts_.size(); }
  bool empty() const { return starts_.empty(); }
  PgLockRow operator[](size_t i) const;
  PgLockRow front() const { return (*this)[0]; }
  /// The last row, unpacked when it was added (no copy).
  const PgLockRow& back() const { return last_; }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }
  void swap(PgLockRows& other) noexcept;
  /// Bytes of text and packed numbers held (for tests and measures).
  size_t bytes() const { return used_; }

 private:
  char* Room(size_t bytes);  // in the last block, a new one when it is full
  bool InLastBlock(std::string_view text) const;

  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_size_ = 0;          // of blocks_.back()
  char* free_ = nullptr;           // in blocks_.back()
  size_t left_ = 0, used_ = 0;
  std::vector<const char*> starts_;  // each row's packed start
  PgLockRow last_;                   // the last row, its columns viewing the blocks
};

}  // namespace lockgraph
