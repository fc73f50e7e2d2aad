// See report_framer.h.
#include "parsers/sqlserver/report_framer.h"

namespace lockgraph {
namespace {

// A start tag `<name` at `pos`: followed by white space, '>' or '/'.
bool StartTagAt(std::string_view line, size_t pos, std::string_view tag) {
  if (line.compare(pos, tag.size(), tag) != 0) return false;
  if (pos + tag.size() == line.size()) return true;  // attributes on the next line
  char c = line[pos + tag.size()];
  return c == ' ' || c == '\t' || c == '\r' || c == '>' || c == '/';
}

// The first start tag of an event or a deadlock at or after `pos`.
size_t FindStart(std::string_view line, size_t pos, bool* is_event) {
  for (size_t at = line.find('<', pos); at != std::string_view::npos; at = line.find('<', at + 1)) {
    if (StartTagAt(line, at, "<event")) return *is_event = true, at;
    if (StartTagAt(line, at, "<deadlock")) return *is_event = false, at;
  }
  return std::string_view::npos;
}

// The end of `</name>` (allowing white space before '>') at or after pos.
size_t FindEnd(std::string_view line, size_t pos, std::string_view close) {
  for (size_t at = line.find(close, pos); at != std::string_view::npos;
       at = line.find(close, at + 1)) {
    size_t k = at + close.size();
    while (k < line.size() && (line[k] == ' ' || line[k] == '\t' || line[k] == '\r')) ++k;
    if (k < line.size() && line[k] == '>') return k + 1;
  }
  return std::string_view::npos;
}

// The value of name="..." in the start tag at `pos`, or "" when the tag
// does not say on this line.
std::string_view EventName(std::string_view line, size_t pos) {
  size_t end = line.find('>', pos);
  std::string_view tag = line.substr(pos, end == std::string_view::npos ? line.size() - pos : end - pos);
  for (char quote : {'"', '\''}) {
    std::string key = std::string(" name=") + quote;
    size_t k = tag.find(key);
    if (k == std::string_view::npos) continue;
    size_t v = k + key.size(), e = tag.find(quote, v);
    if (e != std::string_view::npos) return tag.substr(v, e - v);
  }
  return {};
}

}  // namespace

bool IsDeadlockEventName(std::string_view name) {
  return name == "xml_deadlock_report" || name == "database_xml_deadlock_report" ||
         name == "xml_deadlock_report_filtered";
}

bool ReportFramer::Feed(std::string_view line, uint64_t line_no) {
  bool inside = state_ != State::kOutside;
  size_t pos = 0;
  while (pos <= line.size()) {
    if (state_ == State::kOutside) {
      pos = Open(line, pos, line_no);
      if (pos == std::string_view::npos) break;
      inside = true;
    } else {
      pos = Close(line, pos, line_no);
      if (pos == std::string_view::npos) break;
    }
  }
  return inside;
}

// Outside: finds a start tag, enters its state; returns where to go on.
size_t ReportFramer::Open(std::string_view line, size_t pos, uint64_t line_no) {
  bool is_event = false;
  size_t at = FindStart(line, pos, &is_event);
  if (at == std::string_view::npos) return at;
  first_line_ = line_no;
  too_large_ = false;
  buffer_.clear();
  if (is_event) {
    std::string_view name = EventName(line, at);
    state_ = name.empty() || IsDeadlockEventName(name) ? State::kEvent : State::kSkipEvent;
  } else {
    state_ = State::kDeadlock;
  }
  return at;  // Close() takes the text from the start tag on
}

// Inside: finds the end tag; keeps the text (unless skipping), delivers.
size_t ReportFramer::Close(std::string_view line, size_t pos, uint64_t line_no) {
  bool event = state_ == State::kEvent || state_ == State::kSkipEvent;
  bool keep = state_ == State::kEvent || state_ == State::kDeadlock;
  size_t end = FindEnd(line, pos, event ? "</event" : "</deadlock");
  std::string_view part = line.substr(pos, end == std::string_view::npos ? line.size() - pos : end - pos);
  if (keep) {
    if (pos == 0 && line_no != first_line_) buffer_ += '\n';
    Append(part);
    if (buffer_.size() > max_bytes_) {
      too_large_ = true;
      buffer_.clear();
      buffer_.shrink_to_fit();
      state_ = event ? State::kSkipEvent : State::kSkipDeadlock;
    }
  }
  last_line_ = line_no;
  if (end == std::string_view::npos) return end;
  if (keep || too_large_) Deliver(line_no, false);
  state_ = State::kOutside;
  return end;
}

void ReportFramer::Append(std::string_view text) {
  buffer_.append(text);
  max_buffered_ = std::max(max_buffered_, buffer_.size());
}

void ReportFramer::Deliver(uint64_t last_line, bool cut) {
  Piece p;
  p.xml = too_large_ ? std::string_view() : std::string_view(buffer_);
  p.first_line = first_line_;
  p.last_line = last_line;
  p.is_event = state_ == State::kEvent || state_ == State::kSkipEvent;
  p.cut = cut;
  p.too_large = too_large_;
  fn_(p);
  buffer_.clear();
  too_large_ = false;
}

void ReportFramer::Finish() {
  if (state_ == State::kEvent || state_ == State::kDeadlock || too_large_) Deliver(last_line_, true);
  state_ = State::kOutside;
}

}  // namespace lockgraph
