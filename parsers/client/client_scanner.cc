// See client_scanner.h.
#include "parsers/client/client_scanner.h"

#include "parsers/client/client_lines.h"

namespace lockgraph::client {
namespace {

// The line without terminal colour codes (pytest --color=yes, CI runners):
// ESC [ parameters final-byte. Only lines holding an ESC are copied.
std::string_view WithoutColour(std::string_view line, std::string* buffer) {
  if (line.find('\x1b') == std::string_view::npos) return line;
  buffer->clear();
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
      size_t j = i + 2;
      while (j < line.size() && ((line[j] >= '0' && line[j] <= '9') || line[j] == ';')) ++j;
      if (j < line.size()) {
        i = j;  // the final byte ('m', 'K', ...) goes too
        continue;
      }
    }
    buffer->push_back(line[i]);
  }
  return *buffer;
}

}  // namespace

ClientScanner::LineUse ClientScanner::Line(std::string_view line, uint64_t line_no) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  line = WithoutColour(line, &clean_);
  if (IsPytestSessionStart(line)) shown_ = 0;
  if (IsDeadlockErrorLine(line)) {
    Close();
    // pytest's summary repeats the first line of a failure shown above in
    // full; with --tb=no or --tb=line it is the only trace and is kept.
    if (IsPytestSummaryLine(line) && shown_ > 0) {
      --shown_;
      return LineUse::kEvidence;
    }
    Open(line_no, true);
  }
  std::vector<std::string_view> edges = FindEdgeTexts(line);
  if (!edges.empty()) {
    if (!open_ || edges_done_) {
      Close();
      Open(line_no, false);  // a DETAIL without its error line
    }
    for (std::string_view e : edges) open_->edges.emplace_back(e);
    open_->last_line = last_evidence_ = line_no;
    return LineUse::kEvidence;
  }
  if (!open_) return LineUse::kOther;
  if (open_->first_line == line_no) return LineUse::kEvidence;  // the error line
  if (!open_->edges.empty()) edges_done_ = true;
  if (auto label = FindLabel(line)) {
    std::string& field = label->label == LabelValue::Label::kHint ? open_->hint : open_->context;
    if (field.empty()) {
      field = std::move(label->value);
      open_->last_line = last_evidence_ = line_no;
      return LineUse::kEvidence;
    }
  }
  if (line_no - last_evidence_ > kQuietLines) Close();
  return LineUse::kOther;
}

void ClientScanner::Open(uint64_t line_no, bool error_line) {
  open_.emplace();
  open_->first_line = open_->last_line = last_evidence_ = line_no;
  open_->error_line = error_line;
  edges_done_ = false;
}

bool ClientScanner::IsRepeat(const ClientReport& r) {
  if (r.edges.empty()) return false;  // nothing tells two bare messages apart
  for (Seen& s : recent_) {
    if (s.edges == r.edges && r.first_line - s.last_line <= kRepeatLines) {
      s.last_line = r.last_line;
      return true;
    }
  }
  recent_.push_back({r.edges, r.last_line});
  if (recent_.size() > 8) recent_.pop_front();
  return false;
}

void ClientScanner::Close() {
  if (!open_) return;
  ClientReport r = std::move(*open_);
  open_.reset();
  edges_done_ = false;
  if (IsRepeat(r)) return;
  ++shown_;
  on_report_(std::move(r));
}

}  // namespace lockgraph::client
