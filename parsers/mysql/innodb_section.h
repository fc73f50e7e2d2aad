// Gathers the body of one InnoDB deadlock report, one line at a time, with
// whatever framing (error-log prefix, client table) already taken off:
// timestamp line, `*** (n) TRANSACTION:` blocks, lock sections with their
// record dumps, and the victim line (reference B2, B10). Record dumps are
// read for their heap numbers only; their bytes are never kept.
#pragma once

#include <string_view>

#include "parsers/mysql/innodb_report.h"

namespace lockgraph {

class InnodbSection {
 public:
  enum class Outcome {
    kTaken,       // the line belongs to the report
    kEnd,         // the victim line: the report is complete
    kNotUnderstood,  // inside the report, but not a line InnoDB prints there
  };

  /// `show_records`: keep the record lines under each lock line (--show-records).
  explicit InnodbSection(InnodbReport report, bool show_records = false)
      : report_(std::move(report)), show_records_(show_records) {}

  /// `text` is one line of the report, framing removed, '\r' removed.
  Outcome Add(std::string_view text, uint64_t line_no);
  /// True once a `***` header (or the TOO DEEP message) was read.
  bool started() const { return started_; }
  InnodbReport& report() { return report_; }

 private:
  enum class Part { kNone, kTrx, kLocks };
  Outcome AddTrxLine(std::string_view text);
  Outcome AddLockLine(std::string_view text, uint64_t line_no);
  void Header(const InnodbHeader& h, uint64_t line_no);
  std::vector<InnodbLock>& Locks();

  InnodbReport report_;
  bool show_records_ = false;
  bool started_ = false;
  Part part_ = Part::kNone;
  size_t trx_ = 0;                       // index of the open part's transaction
  InnodbHeader::Kind list_ = InnodbHeader::Kind::kWaiting;  // kLocks: which list
  bool in_query_ = false;                // after the thread id line: SQL text
};

}  // namespace lockgraph
