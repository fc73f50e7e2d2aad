// See syslog_reader.h. The prefix is needed before the first chunk can be
// classified (a later chunk that starts with prefix + label is a new part),
// hence the held head while detecting it.
#include "parsers/postgresql/syslog_reader.h"

#include <algorithm>

#include "parsers/postgresql/label_scan.h"
#include "parsers/postgresql/labels.h"

namespace lockgraph {
namespace {

constexpr const char* kCatchAllPrefix = "%*";

}  // namespace

std::optional<std::string> DetectSyslogPrefix(const std::vector<std::string>& head,
                                              int* matched) {
  std::vector<std::string> texts;
  std::string buffer;
  SyslogFrame frame;
  for (const std::string& line : head) {
    if (!ParseSyslogFrame(line, &frame)) continue;
    std::string_view text = UnescapeSyslog(frame.text, &buffer);
    if (!text.empty() && text.front() != '\t') texts.emplace_back(text);
  }
  int count = 0;
  std::optional<std::string> prefix = DetectPrefix(texts, &count);
  if (matched) *matched = count;
  return prefix;
}

namespace {

// The assembler's tests, copies of the callbacks' (an assembler may move to
// another reader: syslog_blocks.h).
std::function<bool(std::string_view)> Interesting(const RecordCallbacks& cb) {
  if (cb.interesting) return cb.interesting;
  return [](std::string_view) { return true; };
}

}  // namespace

SyslogReader::SyslogReader(std::string file, RecordCallbacks callbacks,
                           std::shared_ptr<const PrefixMatcher> matcher, bool may_redetect)
    : SyslogReader(std::move(file), std::move(callbacks), std::nullopt, false) {
  matcher_ = std::move(matcher);
  part_ = true;
  may_redetect_ = may_redetect;
}

SyslogReader::SyslogReader(std::string file, RecordCallbacks callbacks,
                           std::optional<std::string> prefix, bool redetect)
    : file_(std::move(file)),
      cb_(std::move(callbacks)),
      joiner_(SyslogLineJoiner::Callbacks{
          [this](std::string_view text) { return matcher_->Match(text, &probe_, nullptr); },
          [this](int64_t pid, std::string_view time, std::string_view line, uint64_t line_no) {
            OnPart(pid, time, line, line_no);
          },
          [this](std::string_view text, uint64_t line_no) {
            assembler_.OnContinuation(text, line_no);
          }}),
      assembler_(
          file_,
          [this](LogRecord&& r) {
            if (cb_.on_record) cb_.on_record(std::move(r));
          },
          Interesting(cb_), cb_.orphan_detail),
      redetect_(redetect) {
  if (prefix) UsePrefix(*prefix, "the given log_line_prefix is unusable");
}

void SyslogReader::UsePrefix(const std::string& prefix, const char* why_not) {
  std::string error;
  matcher_ = PrefixMatcher::Compile(prefix, &error);
  if (matcher_) return;
  Warn(0, std::string(why_not) + ": " + error + "; reading the messages with any text "
                                                "before the severity");
  matcher_ = PrefixMatcher::Compile(kCatchAllPrefix, &error);
}

void SyslogReader::Warn(uint64_t line_no, std::string message) {
  Tell(Diagnostic::Severity::kWarning, line_no, std::move(message));
}

void SyslogReader::Tell(Diagnostic::Severity severity, uint64_t line_no, std::string message) {
  if (!cb_.on_diagnostic) return;
  Diagnostic d;
  d.severity = severity;
  d.file = file_;
  d.line = line_no;
  d.message = std::move(message);
  cb_.on_diagnostic(std::move(d));
}

void SyslogReader::ParseLine(std::string_view line, uint64_t line_no) {
  SyslogFrame frame;
  const bool framed = SplitSyslogLine(&line, &frame);
  ParseFramed(line, framed ? &frame : nullptr, line_no);
}

void SyslogReader::ParseFramed(std::string_view line, const SyslogFrame* frame,
                               uint64_t line_no) {
  if (matcher_) return Process(line, frame, line_no);
  if (held_.empty()) held_first_ = line_no;
  held_.emplace_back(line);
  if (held_.size() >= kDetectLines) DetectAndReplay();
}

void SyslogReader::DetectAndReplay() {
  int matched = 0;
  std::optional<std::string> prefix = DetectSyslogPrefix(held_, &matched);
  if (prefix) {
    UsePrefix(*prefix, "the detected log_line_prefix is unusable");
  } else {
    Warn(held_first_,
         "no known log_line_prefix fits the messages inside the syslog lines; reading them "
         "with any text before the severity (give the prefix with --prefix)");
    UsePrefix(kCatchAllPrefix, "the catch-all prefix is unusable");
  }
  std::vector<std::string> held = std::move(held_);
  held_.clear();
  uint64_t line_no = held_first_;
  for (std::string_view line : held) {
    SyslogFrame frame;
    const bool framed = SplitSyslogLine(&line, &frame);
    Process(line, framed ? &frame : nullptr, line_no++);
  }
}

void SyslogReader::Process(std::string_view line, const SyslogFrame* frame, uint64_t line_no) {
  ++counts_.total;
  if (frame && joiner_.OnFrame(*frame, line_no)) {
    // Evidence for Redetect().
    if (redetect_.WantsMore()) redetect_.Fits(UnescapeSyslog(frame->text, &unescaped_));
    ++counts_.parsed;
    return;
  }
  if (frame && Redetect(*frame, line_no) && joiner_.OnFrame(*frame, line_no)) {
    ++counts_.parsed;
    return;
  }
  ++counts_.unparsed;
  if (cb_.on_unparsed) cb_.on_unparsed(line_no, line);
}

// A message that looks prefixed but does not fit (prefix_redetect.h): true
// when another prefix fits it and is used from here on.
bool SyslogReader::Redetect(const SyslogFrame& frame, uint64_t line_no) {
  if (!matcher_) return false;
  if (part_) {
    if (may_redetect_ && !stopped_at_ &&
        PrefixRedetector::MayTry(UnescapeSyslog(frame.text, &unescaped_), *matcher_))
      stopped_at_ = line_no;
    return false;
  }
  std::string note;
  std::unique_ptr<PrefixMatcher> m =
      redetect_.Retry(UnescapeSyslog(frame.text, &unescaped_), *matcher_, &note);
  if (!m) return false;
  Tell(Diagnostic::Severity::kNote, line_no, std::move(note));
  matcher_ = std::move(m);
  ++matcher_generation_;
  return true;
}

void SyslogReader::OnPart(int64_t pid, std::string_view time, std::string_view line,
                          uint64_t line_no) {
  if (SkipPart(pid, line, line_no)) return;
  PrefixedLine part;
  // The joiner checked the first chunk; later chunks only appended text.
  if (!matcher_->Match(line, &part, &session_)) return;
  if (!matcher_->has_pid() || !part.pid) part.pid = pid;
  if (part.time.empty()) part.time = time;
  part.session = &session_;
  assembler_.OnPrefixed(part, line_no);
}

// The stderr reader's fast path (StderrLines::SkipFast) for a part line the
// joiner found prefixed: a part that cannot start an event's record (a
// primary message the assembler would not keep, any other part but an
// orphan DETAIL) goes to the assembler without the full match of the
// prefix. Only with the assembler's own two tests at hand. True when the
// part was handled.
bool SyslogReader::SkipPart(int64_t syslog_pid, std::string_view line, uint64_t line_no) {
  if (!cb_.interesting || !cb_.orphan_detail) return false;
  std::string_view word;
  const size_t start = FindLabelStart(line, &word);
  if (start == std::string_view::npos) return false;
  const std::optional<LabelInfo> info = LookupLabel(word);
  if (!info) return false;
  // The message's text after "LABEL:  " (none when the line ends there).
  const std::string_view after = line.substr(std::min(start + word.size() + 3, line.size()));
  if (info->label == PartLabel::kDetail && cb_.orphan_detail(after)) return false;
  if (info->label == PartLabel::kPrimary) {
    std::string_view text = after;
    // log_error_verbosity = verbose: "ERROR:  40P01: deadlock detected".
    if (text.size() > 7 && text[5] == ':' && text[6] == ' ') text.remove_prefix(7);
    if (cb_.interesting(text)) return false;
  }
  if (!assembler_.HasOpen()) return true;
  std::optional<int64_t> pid = syslog_pid;
  if (matcher_->has_pid()) pid = matcher_->QuickPid(line.substr(0, start));
  if (!pid) return false;
  assembler_.OnUnmatchedPart(*pid, info->label, info->canonical, after, line_no);
  return true;
}

void SyslogReader::Fingerprint(uint64_t line_shift, std::vector<uint64_t>* out) const {
  joiner_.Fingerprint(line_shift, out);
  out->push_back(UINT64_MAX);
  assembler_.Fingerprint(line_shift, out);
}

void SyslogReader::TakeOver(SyslogReader& part, const LineCounts& counted, uint64_t line_shift) {
  joiner_.TakeState(std::move(part.joiner_));
  joiner_.ShiftLines(line_shift);
  assembler_ = std::move(part.assembler_);
  assembler_.SetEmit([this](LogRecord&& r) {
    if (cb_.on_record) cb_.on_record(std::move(r));
  });
  assembler_.ShiftLines(line_shift);
  counts_ += part.counts_;
  counts_ -= counted;
}

void SyslogReader::Flush(FlushMode mode) {
  if (!matcher_) return;  // still holding lines to detect the prefix
  joiner_.Finish();
  if (mode == FlushMode::kSameOutput) {
    assembler_.CloseComplete();
  } else {
    assembler_.CloseAll();
  }
}

void SyslogReader::Finish() {
  if (!matcher_ && !held_.empty()) DetectAndReplay();
  joiner_.Finish();
  assembler_.Finish();
}

}  // namespace lockgraph
