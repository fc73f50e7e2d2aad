// Reads PostgreSQL csvlog (reference §6.3, pitfall 23) into LogRecords: 23,
// 24 or 26 columns told apart per record by counting fields, quoted fields
// over several lines, the translated error_severity mapped to English.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/input_format.h"
#include "parsers/postgresql/csv_record_reader.h"
#include "parsers/postgresql/record_reader.h"

namespace lockgraph {

/// True when `line` starts like a csvlog record: a log_time
/// `YYYY-MM-DD HH:MM:SS[.fff] ZONE`, a comma, then a quoted or missing
/// user_name.
bool LooksLikeCsvlogStart(std::string_view line);

/// Streaming csvlog reader. Every input line is counted once, as parsed (it
/// belongs to a record that was delivered) or unparsed (not a record start,
/// a field count other than 23, 24 or 26, a misplaced quote). A record whose
/// quotes are still open at Finish() is delivered with truncated = true and
/// a warning. Not thread-safe; not copyable (callbacks capture it).
class CsvlogReader {
 public:
  CsvlogReader(std::string file, RecordCallbacks callbacks);
  CsvlogReader(const CsvlogReader&) = delete;
  CsvlogReader& operator=(const CsvlogReader&) = delete;

  /// `line` without its '\n'; `line_no` is 1-based and increases by one.
  void ParseLine(std::string_view line, uint64_t line_no);
  /// End of input: delivers the record still open, flagged as cut.
  void Finish();
  const LineCounts& counts() const { return counts_; }
  /// Lines of the record still open (read, not yet counted either way).
  uint64_t pending_lines() const { return csv_.open() ? record_lines_ : 0; }
  /// Where a block may be cut for reading on several threads
  /// (record_chunks.h): a line that looks like a record's first.
  static bool MayStartRecord(std::string_view line) { return LooksLikeCsvlogStart(line); }

 private:
  bool IsWholeRecord(std::string_view line);
  void Fed(CsvRecordReader::State state, std::string_view line);
  void HoldLine(std::string_view line);
  void Accept(bool truncated);
  void Reject(std::string_view last_line);
  void CutOpenRecord(const char* why);
  void Unparsed(uint64_t line_no, std::string_view text);
  LogRecord BuildRecord(bool truncated) const;

  std::string file_;
  RecordCallbacks cb_;
  CsvRecordReader csv_;
  CsvRecordReader probe_;  // checks whether a line is a whole record
  LineCounts counts_;
  uint64_t first_line_ = 0;
  uint64_t record_lines_ = 0;
  // The earlier lines of a multi-line record, kept to list them as
  // unparsed if the record turns out malformed.
  std::string held_;
  std::vector<size_t> held_ends_;
};

}  // namespace lockgraph
