// PostgreSQL's stderr log layout (reference §6.1): every part of a message
// on a line of its own with the full log_line_prefix, embedded newlines
// followed by one TAB. Lines go through the PrefixMatcher, then the
// RecordAssembler, then the PgEventBuilder.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parsers/block_parser.h"
#include "parsers/builtin_formats.h"
#include "parsers/flushable.h"
#include "parsers/postgresql/event_builder.h"
#include "parsers/postgresql/label_scan.h"
#include "parsers/postgresql/labels.h"
#include "parsers/postgresql/line_marks.h"
#include "parsers/postgresql/prefix.h"
#include "parsers/postgresql/prefix_redetect.h"
#include "parsers/postgresql/record_assembler.h"

namespace lockgraph {
namespace {

constexpr size_t kUnmarked = std::string_view::npos;

class StderrParser final : public LineParser, public FlushableParser, public BlockParser {
 public:
  /// `redetect`: the prefix was detected on the first lines, not given.
  StderrParser(const std::string& file, std::unique_ptr<PrefixMatcher> matcher, bool redetect,
               ParseSink& sink)
      : file_(file),
        sink_(sink),
        matcher_(std::move(matcher)),
        builder_(std::make_shared<PgEventBuilder>(sink)),
        assembler_(
            file, [this](LogRecord&& r) { Build(std::move(r)); }, &PgEventBuilder::IsInteresting,
            &PgEventBuilder::IsOrphanDetail),
        redetect_(redetect) {}

  void ParseLine(std::string_view line, uint64_t line_no) override {
    Parse(line, line_no, kUnmarked);
  }

  /// `at`: where `line` starts in the block marks_ has scanned, or
  /// kUnmarked (a line read alone). Inlined into ParseBlock's loop: the
  /// call and its frame cost about 20 instructions a line.
  [[gnu::always_inline]] void Parse(std::string_view line, uint64_t line_no, size_t at) {
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
      tabs_seen_ = true;
      Continuation(line.substr(1), line, line_no);  // as the server writes it
      return;
    }
    PartLabel fast_label;
    if (SkipFast(line, line_no, at, raw.size(), &fast_label)) {
      Prefixed(fast_label);
      return;
    }
    PrefixedLine parsed;
    if (matcher_->Match(line, &parsed, &session_)) {
      if (frame_) UseFrame(&parsed);
      Prefixed(parsed.label);
      assembler_.OnPrefixed(parsed, line_no);
      return;
    }
    if (Redetect(line, line_no) && matcher_->Match(line, &parsed, &session_)) {
      if (frame_) UseFrame(&parsed);
      Prefixed(parsed.label);
      assembler_.OnPrefixed(parsed, line_no);
      return;
    }
    NotPrefixed(line, line_no);
  }

  void Prepare(const std::vector<std::string>& head) override {
    for (const std::string& line : head) {
      tabs_seen_ = tabs_seen_ || (!line.empty() && line[0] == '\t');
      redetect_.Fits(line);
    }
  }

  /// The frame's pid and time stand in for a prefix without %p or a time
  /// escape (Heroku: " sql_error_code = %e ").
  void ParseFramedLine(std::string_view line, uint64_t line_no,
                       const FrameFields& frame) override {
    frame_ = &frame;
    ParseLine(line, line_no);
    frame_ = nullptr;
  }

  void Flush(FlushMode mode) override {
    if (mode == FlushMode::kSameOutput) {
      assembler_.CloseComplete();
    } else {
      assembler_.CloseAll();
    }
  }
  void Finish() override {
    assembler_.Finish();
    sink_.Defer([builder = builder_](ParseSink& sink) {
      builder->set_sink(sink);
      builder->Finish();
    });
  }

  const LineCounts& counts() const override { return counts_; }

  // BlockParser: a file's lines a block at a time, on this thread (records
  // join lines of one backend across others', so parts cannot be parsed
  // apart): no call through the reader and a std::function for each line.
  void UseThreads(unsigned) override {}
  size_t BlockBytes() const override { return size_t{1} << 20; }
  bool ParsesOnThreads() const override { return false; }
  size_t ParseBlock(std::string_view lines, bool /*at_end*/) override {
    marks_.Scan(lines);
    for (size_t p = 0; p < lines.size();) {
      // At the end of input, the last line may lack its '\n'.
      const size_t nl = marks_.LineEnd(p);
      Parse(lines.substr(p, nl - p), ++block_line_no_, p);
      p = nl + 1;
    }
    return lines.size();
  }

 private:
  // A whole record becomes events where the sink says (ParseSink::Defer):
  // with two threads, on the one that runs the rules, beside the reading.
  // The work holds the builder, which may outlive this parser.
  void Build(LogRecord&& record) {
    sink_.Defer([builder = builder_, record = std::move(record)](ParseSink& sink) mutable {
      builder->set_sink(sink);
      builder->OnRecord(std::move(record));
    });
  }

  void Prefixed(PartLabel label) {
    ++counts_.parsed;
    in_message_ = true;
    last_label_ = label;
  }

  // A TAB line, or a line that lost its TAB in a paste: the next line of
  // the message before it, if there is one.
  void Continuation(std::string_view text, std::string_view line, uint64_t line_no) {
    if (!in_message_) {
      ++counts_.unattached;
      Unparsed(line, line_no);
      return;
    }
    ++counts_.parsed;
    if (assembler_.HasOpen()) assembler_.OnContinuation(text, line_no);
  }

  // A line without the prefix (reference §9.4, §10): a continuation whose
  // TAB became spaces or went missing in a paste (web pages, log viewers,
  // tickets), a blank line, a grep group separator, or not understood.
  void NotPrefixed(std::string_view line, uint64_t line_no) {
    if (line.empty()) {
      if (in_message_) {
        ++counts_.parsed;  // query text that ended in a newline
        assembler_.OnContinuation(line, line_no);
      } else {
        ++counts_.skipped;  // blank line between records
      }
      return;
    }
    if (line == "--") {  // grep -A/-B/-C between groups
      ++counts_.skipped;
      in_message_ = false;
      return;
    }
    size_t indent = line.find_first_not_of(" \t");
    if (indent > 0) {
      Continuation(line.substr(indent), line, line_no);
      return;
    }
    // No indentation at all: only in an input whose continuation lines
    // lost their TABs (one that has TAB lines did not), and only inside a
    // part that runs over several lines (DETAIL, CONTEXT, STATEMENT, a
    // QUERY) or a record being read.
    const bool multi_line_part = last_label_ == PartLabel::kDetail ||
                                 last_label_ == PartLabel::kContext ||
                                 last_label_ == PartLabel::kStatement ||
                                 last_label_ == PartLabel::kQuery;
    if (!tabs_seen_ && in_message_ && (multi_line_part || assembler_.LastIsOpen())) {
      ++counts_.parsed;
      assembler_.OnContinuation(line, line_no);
      return;
    }
    Unparsed(line, line_no);
  }

  // Fast path (most lines of a log): a line whose label shows that it
  // starts or continues an uninteresting message needs no prefix regex.
  // The assembler then needs only its pid, label and text (time and session
  // matter only to a primary line that opens a record, and those are the
  // interesting ones, which go the slow way). Lines it is unsure about go
  // the slow way too, where the whole prefix is checked. True when the
  // line was handled; then `label` is its label.
  bool SkipFast(std::string_view line, uint64_t line_no, size_t at, size_t raw_size,
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
    if (!assembler_.IsOpen(*pid)) {
      assembler_.OnSkippedLine(*pid);
      return true;
    }
    PrefixedLine part;
    part.label = info->label;
    part.severity = info->canonical;
    part.pid = pid;
    part.text = after;
    assembler_.OnPrefixed(part, line_no);
    return true;
  }

  // The line's label (FindLabelStart's word, looked up), where it starts
  // and its word. The colon after the word is the first ":  " of the
  // line's first 512 bytes (its trailing blanks already cut): from the
  // block's marks when it has some. With none, the colon that ends the
  // line when the blanks cut after it (the line was `raw_size` bytes long)
  // began with two spaces: "STATEMENT:  " and a query that starts on the
  // next line. That is the line's first ":  " before the cut, as the
  // server wrote it. The four common words are tried in place first.
  std::optional<LabelInfo> FindLabel(std::string_view line, size_t at, size_t raw_size,
                                     size_t* start, std::string_view* word) const {
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

  void UseFrame(PrefixedLine* parsed) const {
    if (!parsed->pid) parsed->pid = frame_->pid;
    if (parsed->time.empty()) parsed->time = frame_->time;
  }

  // A line that looks prefixed but does not fit (prefix_redetect.h): true
  // when another prefix fits it and is used from here on.
  bool Redetect(std::string_view line, uint64_t line_no) {
    std::string note;
    std::unique_ptr<PrefixMatcher> m = redetect_.Retry(line, *matcher_, &note);
    if (!m) return false;
    Diagnostic d;
    d.severity = Diagnostic::Severity::kNote;
    d.file = file_;
    d.line = line_no;
    d.message = std::move(note);
    sink_.OnDiagnostic(std::move(d));
    matcher_ = std::move(m);
    return true;
  }

  void Unparsed(std::string_view line, uint64_t line_no) {
    ++counts_.unparsed;
    in_message_ = false;
    sink_.OnUnparsed(file_, line_no, line);
  }

  std::string file_;
  ParseSink& sink_;
  std::unique_ptr<PrefixMatcher> matcher_;
  std::shared_ptr<PgEventBuilder> builder_;  // used only by the work handed to sink_
  RecordAssembler assembler_;
  SessionInfo session_;  // reused for every line: no allocation per line
  LineCounts counts_;
  bool in_message_ = false;  // the line before belongs to a message
  bool tabs_seen_ = false;   // a continuation line kept its TAB (so all did)
  PartLabel last_label_ = PartLabel::kPrimary;  // of the last prefixed line
  const FrameFields* frame_ = nullptr;  // during ParseFramedLine only
  uint64_t block_line_no_ = 0;  // of the last line ParseBlock() read
  LineMarks marks_;  // of the block ParseBlock() reads
  PrefixRedetector redetect_;  // the first lines, for a line the prefix does not fit
};

class StderrFormat : public InputFormat {
 public:
  std::string Name() const override { return "stderr"; }
  std::string Description() const override {
    return "PostgreSQL stderr log with any log_line_prefix (detected, or --prefix)";
  }

  SniffResult Sniff(const std::vector<std::string>& head,
                    const ParseOptions& options) const override {
    SniffResult result;
    if (options.has_prefix) {
      std::string error;
      auto m = PrefixMatcher::Compile(options.log_line_prefix, &error);
      if (!m) {
        result.reason = error;
        return result;
      }
      PrefixedLine out;
      for (const std::string& line : head) result.score += m->Match(line, &out, nullptr);
      result.verdict = result.score > 0 ? SniffResult::Verdict::kMatch
                                        : SniffResult::Verdict::kNoMatch;
      result.detected = options.log_line_prefix;
      if (!result.score) result.reason = "no line matches --prefix '" + options.log_line_prefix + "'";
      return result;
    }
    int matched = 0;
    std::optional<std::string> prefix = DetectPrefix(head, &matched);
    result.score = matched;
    if (!prefix) {
      result.reason = "no log_line_prefix followed by a severity (LOG:, ERROR:, ...) fits most lines";
      result.detected = "%*";  // what --input-format stderr then falls back to
      return result;
    }
    result.verdict = SniffResult::Verdict::kMatch;
    result.detected = *prefix;
    // "Any text, then a label" is a guess: its lines count half against
    // another catch-all (application output that names a driver).
    result.fallback = *prefix == "%*";
    if (result.fallback) result.score = (result.score + 1) / 2;
    return result;
  }

  std::unique_ptr<LineParser> CreateParser(const std::string& file,
                                           const ParseOptions& options,
                                           const std::string& detected,
                                           ParseSink& sink) const override {
    std::string prefix = options.has_prefix ? options.log_line_prefix : detected;
    std::string error;
    auto matcher = PrefixMatcher::Compile(prefix, &error);
    if (!matcher) matcher = PrefixMatcher::Compile("%*", &error);
    return std::make_unique<StderrParser>(file, std::move(matcher), !options.has_prefix, sink);
  }
};

}  // namespace

std::unique_ptr<InputFormat> MakePgStderrFormat() { return std::make_unique<StderrFormat>(); }

}  // namespace lockgraph
