// See stderr_lines.h. PostgreSQL's stderr log layout (reference §6.1): every
// part of a message on a line of its own with the full log_line_prefix,
// embedded newlines followed by one TAB. The helpers of Parse() are
// `inline`, as when they were written in the class: the compiler then
// inlines FindLabel into SkipFast (25 M instructions in 100 MB).
#include "parsers/postgresql/stderr_lines.h"

#include <algorithm>
#include <utility>

#include "parsers/postgresql/event_builder.h"
#include "parsers/postgresql/label_scan.h"

namespace lockgraph {
namespace {

constexpr size_t kUnmarked = std::string_view::npos;

}  // namespace

StderrLines::StderrLines(const std::string& file, std::shared_ptr<const PrefixMatcher> matcher,
                         PrefixRedetector* redetect, StderrOutput* out)
    : file_(file),
      matcher_(std::move(matcher)),
      redetect_(redetect),
      out_(out),
      assembler_(
          file, [this](LogRecord&& r) { out_->OnRecord(std::move(r)); },
          &PgEventBuilder::IsInteresting, &PgEventBuilder::IsOrphanDetail) {}

void StderrLines::ParseLine(std::string_view line, uint64_t line_no) {
  Parse(line, line_no, kUnmarked);
}

// `at`: where `line` starts in the block marks_ has scanned, or kUnmarked
// (a line read alone). Inlined into ParseLines' loop: the call and its
// frame cost about 20 instructions a line.
[[gnu::always_inline]] inline void StderrLines::Parse(std::string_view line, uint64_t line_no,
                                                      size_t at) {
  ++counts_.total;
  // CRLF, and the blanks an editor or a paste leaves at a line's end.
  const std::string_view raw = line;
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
    line.remove_suffix(1);
  if (line.empty()) {  // no prefix, no label: the regexes would only say so
    NotPrefixed(line, line_no);
    return;
  }
  if (line.front() == '\t') {
    mood_.tabs_seen = true;
    Continuation(line.substr(1), line, line_no);  // as the server writes it
    return;
  }
  PartLabel fast_label;
  if (SkipFast(line, line_no, at, raw.size(), &fast_label)) {
    Prefixed(fast_label);
    return;
  }
  PrefixedLine parsed;
  if (matcher_->Match(line, &parsed, &session_) ||
      (Redetect(line, line_no) && matcher_->Match(line, &parsed, &session_))) {
    if (frame_) UseFrame(&parsed);
    Prefixed(parsed.label);
    assembler_.OnPrefixed(parsed, line_no);
    return;
  }
  NotPrefixed(line, line_no);
}

void StderrLines::ParseLines(std::string_view lines) {
  marks_.Scan(lines);
  for (size_t p = 0; p < lines.size();) {
    // At the end of input, the last line may lack its '\n'.
    const size_t nl = marks_.LineEnd(p);
    Parse(lines.substr(p, nl - p), ++line_no_, p);
    p = nl + 1;
  }
}

void StderrLines::TakeOver(StderrLines& part, const LineCounts& counted, uint64_t line_shift) {
  assembler_ = std::move(part.assembler_);
  assembler_.SetEmit([this](LogRecord&& r) { out_->OnRecord(std::move(r)); });
  assembler_.ShiftLines(line_shift);
  const bool tabs_seen = mood_.tabs_seen;
  mood_ = part.mood_;
  mood_.tabs_seen = mood_.tabs_seen || tabs_seen;
  counts_ += part.counts_;
  counts_ -= counted;
  line_no_ = part.line_no_ + line_shift;
}

inline void StderrLines::Prefixed(PartLabel label) {
  ++counts_.parsed;
  mood_.in_message = true;
  mood_.last_label = label;
}

// A TAB line, or a line that lost its TAB in a paste: the next line of the
// message before it, if there is one.
inline void StderrLines::Continuation(std::string_view text, std::string_view line, uint64_t line_no) {
  if (!mood_.in_message) {
    ++counts_.unattached;
    Unparsed(line, line_no);
    return;
  }
  ++counts_.parsed;
  if (assembler_.HasOpen()) assembler_.OnContinuation(text, line_no);
}

// A line without the prefix (reference §9.4, §10): a continuation whose TAB
// became spaces or went missing in a paste (web pages, log viewers,
// tickets), a blank line, a grep group separator, or not understood.
inline void StderrLines::NotPrefixed(std::string_view line, uint64_t line_no) {
  if (line.empty()) {
    if (mood_.in_message) {
      ++counts_.parsed;  // query text that ended in a newline
      assembler_.OnContinuation(line, line_no);
    } else {
      ++counts_.skipped;  // blank line between records
    }
    return;
  }
  if (line == "--") {  // grep -A/-B/-C between groups
    ++counts_.skipped;
    mood_.in_message = false;
    return;
  }
  size_t indent = line.find_first_not_of(" \t");
  if (indent > 0) {
    Continuation(line.substr(indent), line, line_no);
    return;
  }
  // No indentation at all: only in an input whose continuation lines lost
  // their TABs (one that has TAB lines did not), and only inside a part
  // that runs over several lines (DETAIL, CONTEXT, STATEMENT, a QUERY) or a
  // record being read.
  const PartLabel last = mood_.last_label;
  const bool multi_line_part = last == PartLabel::kDetail || last == PartLabel::kContext ||
                               last == PartLabel::kStatement || last == PartLabel::kQuery;
  if (!mood_.tabs_seen && mood_.in_message && (multi_line_part || assembler_.LastIsOpen())) {
    last_tabless_at_ = line_no;
    ++counts_.parsed;
    assembler_.OnContinuation(line, line_no);
    return;
  }
  Unparsed(line, line_no);
}

// Fast path (most lines of a log): a line whose label shows that it starts
// or continues an uninteresting message needs no prefix regex. The
// assembler then needs only its pid, label and text (time and session
// matter only to a primary line that opens a record, and those are the
// interesting ones, which go the slow way). Lines it is unsure about go the
// slow way too, where the whole prefix is checked. True when the line was
// handled; then `label` is its label.
inline bool StderrLines::SkipFast(std::string_view line, uint64_t line_no, size_t at, size_t raw_size,
                           PartLabel* label) {
  std::string_view word;
  size_t start = kUnmarked;
  std::optional<LabelInfo> info = FindLabel(line, at, raw_size, &start, &word);
  if (!info) return false;
  // The message's text after "LABEL:  " (none when the line ends there).
  const std::string_view after = line.substr(std::min(start + word.size() + 3, line.size()));
  // A deadlock's DETAIL goes the slow way: it may be all that is left of
  // the report (grep output), and then it opens a record of its own.
  if (info->label == PartLabel::kDetail && PgEventBuilder::IsOrphanDetail(after)) return false;
  if (info->label == PartLabel::kPrimary) {
    std::string_view text = after;
    // log_error_verbosity = verbose: "ERROR:  40P01: deadlock detected".
    if (text.size() > 7 && text[5] == ':' && text[6] == ' ') text.remove_prefix(7);
    if (PgEventBuilder::IsInteresting(text)) return false;
  }
  *label = info->label;
  if (!assembler_.HasOpen()) return true;
  std::optional<int64_t> pid = matcher_->QuickPid(line.substr(0, start));
  if (!pid) return false;
  assembler_.OnUnmatchedPart(*pid, info->label, info->canonical, after, line_no);
  return true;
}

// The line's label (FindLabelStart's word, looked up), where it starts and
// its word. The colon after the word is the first ":  " of the line's first
// 512 bytes (its trailing blanks already cut): from the block's marks when
// it has some. With none, the colon that ends the line when the blanks cut
// after it (the line was `raw_size` bytes long) began with two spaces:
// "STATEMENT:  " and a query that starts on the next line. That is the
// line's first ":  " before the cut, as the server wrote it. The four
// common words are tried in place first.
inline std::optional<LabelInfo> StderrLines::FindLabel(std::string_view line, size_t at,
                                                size_t raw_size, size_t* start,
                                                std::string_view* word) const {
  size_t colon = kUnmarked;
  if (at == kUnmarked) {
    colon = FindLabelColon(line);
  } else {
    const size_t mark = marks_.FirstLabelMark(at, at + std::min(line.size(), kLabelSearchBytes));
    if (mark != kUnmarked) colon = mark - at;
  }
  const size_t n = line.size();
  if (colon == kUnmarked && raw_size >= n + 2 && n + 2 <= kLabelSearchBytes &&
      line.back() == ':' && line.data()[n] == ' ' && line.data()[n + 1] == ' ')
    colon = n - 1;
  if (colon == kUnmarked || colon == 0) return std::nullopt;
  if (const LabelInfo* info = CommonLabelBefore(line, colon, start)) {
    *word = line.substr(*start, colon - *start);
    return *info;
  }
  *start = LabelStartAt(line, colon, word);
  if (*start == kUnmarked) return std::nullopt;
  return LookupLabel(*word);
}

// The frame's pid and time stand in for a prefix without %p or a time
// escape (Heroku: " sql_error_code = %e ").
inline void StderrLines::UseFrame(PrefixedLine* parsed) const {
  if (!parsed->pid) parsed->pid = frame_->pid;
  if (parsed->time.empty()) parsed->time = frame_->time;
}

// A line that looks prefixed but does not fit (prefix_redetect.h): true when
// another prefix fits it and is used from here on. A part's reader, which
// has no redetector, notes the first line where the real one would try.
inline bool StderrLines::Redetect(std::string_view line, uint64_t line_no) {
  if (!redetect_) {
    if (may_redetect_ && !stopped_at_ && PrefixRedetector::MayTry(line, *matcher_))
      stopped_at_ = line_no;
    return false;
  }
  std::string note;
  std::unique_ptr<PrefixMatcher> m = redetect_->Retry(line, *matcher_, &note);
  if (!m) return false;
  Diagnostic d;
  d.severity = Diagnostic::Severity::kNote;
  d.file = file_;
  d.line = line_no;
  d.message = std::move(note);
  out_->OnNote(std::move(d));
  matcher_ = std::move(m);
  ++matcher_generation_;
  return true;
}

inline void StderrLines::Unparsed(std::string_view line, uint64_t line_no) {
  ++counts_.unparsed;
  mood_.in_message = false;
  out_->OnUnparsed(line_no, line);
}

}  // namespace lockgraph
