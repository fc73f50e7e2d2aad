// See csvlog_reader.h. Column numbers: reference §6.3 (0-based below).
#include "parsers/postgresql/csvlog_reader.h"

#include <algorithm>
#include <charconv>
#include <optional>

#include "parsers/postgresql/labels.h"
#include "text/number.h"

namespace lockgraph {
namespace {

enum Column : size_t {
  kLogTime = 0, kUserName, kDatabaseName, kProcessId, kConnectionFrom,
  kSessionId, kSessionLineNum, kCommandTag, kSessionStartTime, kVxid, kXid,
  kErrorSeverity, kSqlState, kMessage, kDetail, kHint, kInternalQuery,
  kInternalQueryPos, kContext, kQuery, kQueryPos, kLocation, kApplicationName,
  kBackendType, kLeaderPid, kQueryId,
};

constexpr size_t kMaxHeldText = 200;  // of a cut record's first line, in a diagnostic

// 23 columns in 9.6 - 12, 24 in 13 (backend_type), 26 from 14 on.
bool IsCsvlogWidth(size_t n) { return n == 23 || n == 24 || n == 26; }

}  // namespace

bool LooksLikeCsvlogStart(std::string_view s) {
  // "dddd-dd-dd dd:dd:dd": the separators first, where a record's inner
  // line (most lines that are not a record's first) fails at once.
  static constexpr size_t kShape = 19;
  static constexpr size_t kDigits[] = {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18};
  if (s.size() < kShape + 4) return false;
  if (s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' || s[16] != ':') return false;
  for (size_t d : kDigits)
    if (!IsDigit(s[d])) return false;
  size_t i = kShape;
  if (s[i] == '.') {
    const size_t digits = ++i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    if (i == digits) return false;
  }
  if (i >= s.size() || s[i] != ' ') return false;
  const size_t zone = ++i;  // "MSK", "UTC", "-03": no space, comma or quote
  while (i < s.size() && s[i] != ',' && s[i] != ' ' && s[i] != '"') ++i;
  if (i == zone || i + 1 >= s.size() || s[i] != ',') return false;
  return s[i + 1] == '"' || s[i + 1] == ',';
}

CsvlogReader::CsvlogReader(std::string file, RecordCallbacks callbacks)
    : file_(std::move(file)), cb_(std::move(callbacks)) {}

void CsvlogReader::ParseLine(std::string_view line, uint64_t line_no) {
  ++counts_.total;
  if (line_no == 1 && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
  if (csv_.open()) {
    // A whole record on one line while quotes are open means the open
    // record was cut (a crash mid-write). An embedded line of a quoted field
    // cannot pass for one: its quotes are doubled.
    if (!LooksLikeCsvlogStart(line) || !IsWholeRecord(line)) {
      ++record_lines_;
      return Fed(csv_.Feed(line), line);
    }
    CutOpenRecord("csvlog record cut: a new record starts before its quoted field closed");
  }
  if (!LooksLikeCsvlogStart(line)) return Unparsed(line_no, line);
  first_line_ = line_no;
  record_lines_ = 1;
  held_.clear();
  held_ends_.clear();
  Fed(csv_.Feed(line), line);
}

bool CsvlogReader::IsWholeRecord(std::string_view line) {
  const CsvRecordReader::State state = probe_.Feed(line);
  if (state == CsvRecordReader::State::kOpen) probe_.CloseCut();
  return state == CsvRecordReader::State::kComplete && IsCsvlogWidth(probe_.size());
}

void CsvlogReader::Fed(CsvRecordReader::State state, std::string_view line) {
  switch (state) {
    case CsvRecordReader::State::kOpen:
      return HoldLine(line);
    case CsvRecordReader::State::kComplete:
      return IsCsvlogWidth(csv_.size()) ? Accept(false) : Reject(line);
    case CsvRecordReader::State::kMalformed:
      return Reject(line);
  }
}

void CsvlogReader::HoldLine(std::string_view line) {
  held_.append(line);
  held_ends_.push_back(held_.size());
}

void CsvlogReader::Accept(bool truncated) {
  counts_.parsed += record_lines_;
  const bool wanted = cb_.deliver_uninteresting || !cb_.interesting ||
                      cb_.interesting(csv_.size() > kMessage ? csv_.field(kMessage) : "");
  if (cb_.on_record && wanted) cb_.on_record(BuildRecord(truncated));
  record_lines_ = 0;
}

void CsvlogReader::Reject(std::string_view last_line) {
  size_t begin = 0;
  uint64_t line_no = first_line_;
  for (size_t end : held_ends_) {
    Unparsed(line_no++, std::string_view(held_).substr(begin, end - begin));
    begin = end;
  }
  Unparsed(line_no, last_line);
  record_lines_ = 0;
}

void CsvlogReader::CutOpenRecord(const char* why) {
  std::string first_line;
  if (!held_ends_.empty()) first_line = held_.substr(0, std::min(held_ends_[0], kMaxHeldText));
  csv_.CloseCut();
  Accept(true);
  if (cb_.on_diagnostic) {
    Diagnostic d;
    d.severity = Diagnostic::Severity::kWarning;
    d.file = file_;
    d.line = first_line_;
    d.message = why;
    d.text = std::move(first_line);
    cb_.on_diagnostic(std::move(d));
  }
}

void CsvlogReader::Finish() {
  if (csv_.open())
    CutOpenRecord("csvlog record cut: the input ends inside a quoted field");
}

void CsvlogReader::Unparsed(uint64_t line_no, std::string_view text) {
  ++counts_.unparsed;
  if (cb_.on_unparsed) cb_.on_unparsed(line_no, text);
}

LogRecord CsvlogReader::BuildRecord(bool truncated) const {
  // A cut record may have fewer columns; columns 1-23 mean the same in
  // every layout, so each present one is read as is.
  const size_t n = csv_.size();
  auto get = [&](size_t col) { return col < n ? csv_.field(col) : std::string_view(); };
  LogRecord r;
  r.source = {file_, first_line_, first_line_ + record_lines_ - 1, {}};
  r.truncated = truncated;
  r.time = get(kLogTime);
  r.pid = ParseNumber<int64_t>(get(kProcessId));
  r.severity = CanonicalSeverity(get(kErrorSeverity));
  r.sqlstate = get(kSqlState);
  r.message = get(kMessage);
  if (cb_.interesting && !cb_.interesting(r.message)) return r;
  r.detail = get(kDetail);
  r.hint = get(kHint);
  r.context = get(kContext);
  r.statement = get(kQuery);
  SessionInfo& s = r.session;
  s.user = get(kUserName);
  s.database = get(kDatabaseName);
  s.host = get(kConnectionFrom);
  s.session_id = get(kSessionId);
  s.session_line = ParseNumber<uint64_t>(get(kSessionLineNum));
  s.command_tag = get(kCommandTag);
  s.vxid = get(kVxid);
  s.xid = ParseNumber<uint64_t>(get(kXid));
  s.application = get(kApplicationName);
  s.backend_type = get(kBackendType);
  if (n == 26) s.query_id = ParseNumber<int64_t>(get(kQueryId));
  return r;
}

}  // namespace lockgraph
