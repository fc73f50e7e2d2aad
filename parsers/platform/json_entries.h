// Splits JSON log exports, fed one physical line at a time, into their
// entries with bounded memory (one entry at a time, never the whole file):
// NDJSON (one object per line), objects pretty-printed over many lines and
// written one after another, a top-level array of objects (the Cloud
// Logging console and `gcloud logging read --format json`), and Azure's
// {"records": [...]} wrapper (one line or pretty-printed). Every input line
// is counted once. See docs/postgresql.md#cloud-exports.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "parsers/input_format.h"

namespace lockgraph {

/// What an entry's reader made of it.
enum class EntryVerdict {
  kParsed,     // a PostgreSQL log entry that was understood
  kSkipped,    // understood, but not a PostgreSQL log entry (other services)
  kUnparsed,   // not understood (invalid JSON, a PostgreSQL entry without text)
};

/// Not thread-safe; not copyable (callbacks capture their owner).
class JsonEntrySplitter {
 public:
  /// Called once per whole entry (the JSON text of one object, lines joined
  /// by '\n'); `first_line` is the line it starts on.
  using OnEntry = std::function<EntryVerdict(std::string_view json, uint64_t first_line)>;
  /// Called for every line counted as unparsed, with its text.
  using OnUnparsedLine = std::function<void(uint64_t line_no, std::string_view text)>;

  JsonEntrySplitter(OnEntry on_entry, OnUnparsedLine on_unparsed);
  JsonEntrySplitter(const JsonEntrySplitter&) = delete;
  JsonEntrySplitter& operator=(const JsonEntrySplitter&) = delete;

  void ParseLine(std::string_view line, uint64_t line_no);
  /// End of input: an entry still open is counted unparsed; returns false
  /// then (the caller says the input was cut). An entry past 64 MiB is
  /// given up the same way, as broken.
  bool Finish();

  /// Lines: parsed = entries understood or skipped, plus structure (array
  /// brackets, the records wrapper, blank lines); unparsed = the rest.
  const LineCounts& counts() const { return counts_; }
  uint64_t skipped_lines() const { return skipped_lines_; }

 private:
  /// One character outside strings: depth, entry starts and ends.
  void Scan(std::string_view line, size_t i, uint64_t line_no, size_t* seg);
  void EndEntry(uint64_t line_no);
  /// Gives up the open entry (broken JSON): its lines up to `last_line`
  /// are counted unparsed.
  void Abandon(uint64_t last_line);
  void CountUpTo(uint64_t line_no, EntryVerdict verdict);
  bool BecomesRecordsWrapper() const;

  OnEntry on_entry_;
  OnUnparsedLine on_unparsed_;
  LineCounts counts_;
  uint64_t skipped_lines_ = 0;
  int depth_ = 0;
  int entry_depth_ = 0;        // depth at which entries start: 0, 1 (array), 2 (records)
  bool in_string_ = false, escape_ = false;
  bool in_entry_ = false;
  bool garbage_ = false;       // this line has text outside any JSON value
  std::string entry_;          // text of the open entry
  uint64_t entry_first_line_ = 0;
  uint64_t counted_through_ = 0;  // lines up to this one are counted
  uint64_t last_line_ = 0;
  std::string line_text_;      // lines of the open entry, to list them if unparsed
};

}  // namespace lockgraph
