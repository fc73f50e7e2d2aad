// The pglocks-csv input format: a pg_locks snapshot saved by `psql --csv`,
// either docs/snapshot.sql (with pg_blocking_pids and pg_stat_activity) or a
// plain `SELECT * FROM pg_locks`. Recognised by its header line; a repeated
// header starts a new snapshot. docs/watch.md#snapshot-files.
#include <deque>
#include <string>

#include "parsers/builtin_formats.h"
#include "parsers/postgresql/csv_record_reader.h"
#include "parsers/postgresql/pg_snapshot.h"

namespace lockgraph {
namespace {

std::vector<std::string> Fields(const CsvRecordReader& csv) {
  std::vector<std::string> out;
  for (size_t i = 0; i < csv.size(); ++i) out.emplace_back(csv.field(i));
  return out;
}

bool Blank(std::string_view line) { return line.find_first_not_of(" \t\r") == line.npos; }

class PgLocksCsvParser : public LineParser {
 public:
  PgLocksCsvParser(std::string file, ParseSink& sink)
      : file_(std::move(file)), sink_(sink), collector_(file_, sink) {}

  void ParseLine(std::string_view line, uint64_t line_no) override {
    ++counts_.total;
    if (!csv_.open()) {
      if (Blank(line)) {
        ++counts_.parsed;  // psql writes none; a blank line carries nothing
        return;
      }
      first_line_ = line_no;
      lines_.clear();
      held_.clear();
    }
    CsvRecordReader::State state = csv_.Feed(line);
    if (state == CsvRecordReader::State::kOpen) {
      // The record goes on: keep this line until it ends.
      held_.emplace_back(line);
      lines_.push_back(held_.back());
      return;
    }
    lines_.push_back(line);  // valid until this call returns, as OnRecord() is
    OnRecord(state == CsvRecordReader::State::kComplete);
  }

  void Finish() override {
    if (csv_.CloseCut()) OnRecord(false);
    collector_.Finish();
  }

  const LineCounts& counts() const override { return counts_; }

 private:
  void OnRecord(bool complete) {
    if (!complete) return Reject("not a CSV record (a stray quote, or cut at the end)");
    if (header_.empty()) {
      std::vector<std::string> names = Fields(csv_);
      std::string missing;
      if (!IsPgLocksHeader(names, &missing)) return Reject("not a pg_locks header: no " + missing);
      header_ = std::move(names);
      collector_.set_has_blocking_pids(HasBlockingPidsColumn(header_));
      counts_.parsed += lines_.size();
      return;
    }
    if (SameAsHeader()) {
      collector_.Break();  // another snapshot appended to the file
      counts_.parsed += lines_.size();
      return;
    }
    if (csv_.size() != header_.size())
      return Reject(std::to_string(csv_.size()) + " fields, the header has " +
                    std::to_string(header_.size()));
    PgLockRow row;
    row.line = first_line_;
    std::string error;
    size_t asked = 0;
    auto get = [this, &asked](std::string_view column) -> std::optional<std::string_view> {
      const size_t i = ColumnIndex(asked++, column);
      if (i == kNoColumn || csv_.missing(i)) return std::nullopt;  // psql writes NULL as nothing
      return csv_.field(i);
    };
    if (!PgLockRowFromColumns(get, &row, &error)) return Reject(error);
    counts_.parsed += lines_.size();
    collector_.Add(std::move(row), first_line_ + lines_.size() - 1);
  }

  // A repeated header line, compared without copying the fields.
  bool SameAsHeader() const {
    if (csv_.size() != header_.size()) return false;
    for (size_t i = 0; i < header_.size(); ++i)
      if (csv_.field(i) != header_[i]) return false;
    return true;
  }

  void Reject(const std::string& why) {
    counts_.unparsed += lines_.size();
    for (size_t i = 0; i < lines_.size(); ++i) sink_.OnUnparsed(file_, first_line_ + i, lines_[i]);
    sink_.OnDiagnostic({Diagnostic::Severity::kWarning, file_, first_line_,
                        "pg_locks row not understood: " + why, std::string(lines_.front())});
  }

  std::string file_;
  ParseSink& sink_;
  PgSnapshotCollector collector_;
  CsvRecordReader csv_;
  std::vector<std::string> header_;
  std::vector<std::string_view> lines_;  // of the record being read
  std::deque<std::string> held_;         // its lines before the last
  // Where header_ has `column`, the `k`th name this row asks for, or
  // kNoColumn. Every row asks for the same names in the same order: the
  // answer for the last row's `k`th name is kept, found or not, and given
  // again after one compare (a column the header lacks, such as every
  // pg_stat_activity column of a plain pg_locks dump, was searched for in
  // the header on every row; docs/performance.md "pg_locks columns").
  size_t ColumnIndex(size_t k, std::string_view column) {
    if (k < asked_.size() && asked_[k].name == column) return asked_[k].at;
    size_t found = kNoColumn;
    for (size_t i = 0; i < header_.size() && found == kNoColumn; ++i)
      if (header_[i] == column) found = i;
    if (k >= asked_.size()) asked_.resize(k + 1);
    asked_[k] = {std::string(column), found};
    return found;
  }
  static constexpr size_t kNoColumn = size_t(-1);
  struct Asked {
    std::string name;
    size_t at = kNoColumn;
  };
  std::vector<Asked> asked_;  // by the order a row asks for columns
  uint64_t first_line_ = 0;
  LineCounts counts_;
};

class PgLocksCsvFormat : public InputFormat {
 public:
  std::string Name() const override { return "pglocks-csv"; }
  std::string Description() const override {
    return "pg_locks snapshot saved by psql --csv (docs/snapshot.sql or SELECT * FROM pg_locks)";
  }

  /// Matches when the first non-blank line is a CSV header naming locktype,
  /// pid, mode and granted; the score is every line of the head.
  SniffResult Sniff(const std::vector<std::string>& head,
                    const ParseOptions& options) const override {
    SniffResult result;
    for (const std::string& line : head) {
      if (Blank(line)) continue;
      CsvRecordReader csv;
      std::string missing;
      if (csv.Feed(line) == CsvRecordReader::State::kComplete &&
          IsPgLocksHeader(Fields(csv), &missing)) {
        result.verdict = SniffResult::Verdict::kMatch;
        result.score = static_cast<int>(head.size());
        result.reason = HasBlockingPidsColumn(Fields(csv)) ? "docs/snapshot.sql header"
                                                           : "pg_locks header";
      } else {
        result.reason = "the first line is not a CSV header with locktype, pid, mode, granted";
      }
      return result;
    }
    result.reason = "empty input";
    return result;
  }

  std::unique_ptr<LineParser> CreateParser(const std::string& file, const ParseOptions& options,
                                           const std::string& detected,
                                           ParseSink& sink) const override {
    return std::make_unique<PgLocksCsvParser>(file, sink);
  }
};

}  // namespace

std::unique_ptr<InputFormat> MakePgLocksCsvFormat() { return std::make_unique<PgLocksCsvFormat>(); }

}  // namespace lockgraph
