// See errorlog_reader.h.
#include "parsers/sqlserver/errorlog_reader.h"

#include <re2/re2.h>

#include "parsers/sqlserver/deadlock_builder.h"

namespace lockgraph {
namespace {

constexpr int kNoLevel = -1000;  // a line without the report's prefix: text only

const RE2& PrefixPattern() {
  static const RE2 re(R"(^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?) +(\S+))");
  return re;
}

std::string_view Trimmed(std::string_view s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

bool Is1204Start(std::string_view text) {
  return Trimmed(text).substr(0, 20) == "Deadlock encountered";
}

}  // namespace

bool ReadErrorlogPrefix(std::string_view line, ErrorlogPrefix* out) {
  re2::StringPiece input(line.data(), line.size());
  std::string time, source;
  if (!RE2::Consume(&input, PrefixPattern(), &time, &source)) return false;
  out->time = std::move(time);
  out->source = std::move(source);
  size_t pos = line.size() - input.size();
  while (pos < line.size() && line[pos] == ' ') ++pos;
  out->text = pos;
  return true;
}

bool IsErrorlogSource(std::string_view s) {
  static const RE2 re(R"(spid\d+s?|Server|Logon|Backup|DBCC|SQLAgent)");
  return RE2::FullMatch(re2::StringPiece(s.data(), s.size()), re);
}

ErrorlogReader::ErrorlogReader(std::string file, ParseSink& sink)
    : file_(std::move(file)), sink_(sink) {}

void ErrorlogReader::ParseLine(std::string_view line, uint64_t line_no) {
  ++counts_.total;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  ErrorlogPrefix p;
  bool prefixed = ReadErrorlogPrefix(line, &p) && IsErrorlogSource(p.source);
  if ((tf1222_ || tf1204_) && Continue(line, line_no, prefixed, p)) {
    ++counts_.parsed;
    return;
  }
  if (Start(line, line_no, prefixed, p) || prefixed || Trimmed(line).empty()) {
    ++counts_.parsed;
    return;
  }
  ++counts_.unparsed;
  sink_.OnUnparsed(file_, line_no, line);
}

// A line while a report is open: true when it belongs to it (or is another
// source's line between its lines).
bool ErrorlogReader::Continue(std::string_view line, uint64_t line_no, bool prefixed,
                              const ErrorlogPrefix& p) {
  if (prefixed_ && prefixed && p.source != source_) return true;
  std::string_view text = line;
  int level;
  if (prefixed_ && prefixed) {
    text = line.substr(p.text);
    level = int(p.text) - int(base_column_);
  } else {
    size_t indent = line.find_first_not_of(' ');
    if (indent == std::string_view::npos) indent = line.size();
    text = line.substr(indent);
    level = prefixed_ ? kNoLevel + int(indent) : int(indent) - int(base_column_);
  }
  if (Trimmed(text).empty()) level = -1;
  bool belongs = tf1222_ ? tf1222_->Add(text, level) : tf1204_->Add(prefixed_ && prefixed ? text : line);
  if (belongs) {
    last_line_ = line_no;
    return true;
  }
  Close();
  return false;
}

bool ErrorlogReader::Start(std::string_view line, uint64_t line_no, bool prefixed,
                           const ErrorlogPrefix& p) {
  size_t column = prefixed ? p.text : line.find_first_not_of(' ');
  if (column == std::string_view::npos) return false;
  std::string_view text = Trimmed(line.substr(column));
  bool is1222 = text == "deadlock-list";
  if (!is1222 && !Is1204Start(text)) return false;
  doc_ = std::make_unique<pugi::xml_document>();
  if (is1222) {
    tf1222_ = std::make_unique<Tf1222Block>(doc_.get());
    tf1222_->Add(text, 0);
  } else {
    tf1204_ = std::make_unique<Tf1204Block>(doc_.get());
    tf1204_->Add(text);
  }
  prefixed_ = prefixed;
  source_ = prefixed ? p.source : "";
  time_ = prefixed ? p.time : "";
  base_column_ = column;
  first_line_ = last_line_ = line_no;
  return true;
}

void ErrorlogReader::Close(bool at_end) {
  ReportOrigin origin;
  origin.file = file_;
  origin.first_line = first_line_;
  origin.last_line = last_line_;
  origin.time = time_;
  pugi::xml_node deadlock;
  if (tf1222_) {
    tf1222_->Finish();
    deadlock = tf1222_->deadlock();
    origin.form = "trace flag 1222";
  } else {
    tf1204_->Finish();
    deadlock = tf1204_->deadlock();
    origin.form = "trace flag 1204";
  }
  Event ev = BuildSqlServerDeadlock(deadlock, origin);
  // A trace-flag report has no closing line: one that the end of input
  // leaves without its cycle was cut there (a rotated or copied-too-soon
  // ERRORLOG), and is kept and flagged like a cut XML report.
  if (at_end && !ev.deadlock->complete) {
    ev.truncated = true;
    ev.deadlock->problems.push_back("the report is cut (end of input)");
  }
  sink_.OnEvent(std::move(ev));
  tf1222_.reset();
  tf1204_.reset();
  doc_.reset();
}

void ErrorlogReader::Finish() {
  if (tf1222_ || tf1204_) Close(/*at_end=*/true);
}

}  // namespace lockgraph
