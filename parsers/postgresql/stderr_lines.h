// The stderr log's lines, one at a time or a block at a time: the prefix,
// the label, the fast path for uninteresting messages, TAB and lost-TAB
// continuations, the RecordAssembler. What it finds goes to a StderrOutput:
// the parser's sink (stderr_format.cc), or a part's recording when a block
// is read on several threads (stderr_chunks.h), which is why the state is
// a class of its own that can be compared and handed over.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "model/log_record.h"
#include "parsers/input_format.h"
#include "parsers/postgresql/labels.h"
#include "parsers/postgresql/line_marks.h"
#include "parsers/postgresql/prefix.h"
#include "parsers/postgresql/prefix_redetect.h"
#include "parsers/postgresql/record_assembler.h"

namespace lockgraph {

/// Where the lines' results go, in input order.
class StderrOutput {
 public:
  virtual ~StderrOutput() = default;
  virtual void OnRecord(LogRecord&& record) = 0;
  virtual void OnUnparsed(uint64_t line_no, std::string_view text) = 0;
  virtual void OnNote(Diagnostic&& note) = 0;
};

/// Not copyable or movable (the assembler calls back into it).
class StderrLines {
 public:
  /// `redetect`: the reader's PrefixRedetector (the prefix was detected,
  /// not given), or null for none. A part's reader has none: it stops
  /// being right where the real one would try it (MayRedetect).
  StderrLines(const std::string& file, std::shared_ptr<const PrefixMatcher> matcher,
              PrefixRedetector* redetect, StderrOutput* out);
  StderrLines(const StderrLines&) = delete;
  StderrLines& operator=(const StderrLines&) = delete;

  /// One line, read alone; `line_no` is 1-based.
  void ParseLine(std::string_view line, uint64_t line_no);
  /// Every line of `lines` (whole lines, the last one may lack its '\n'),
  /// numbered on from the last line read.
  void ParseLines(std::string_view lines);
  /// Reads the lines of `lines` one at a time while `go_on(index)`, asked
  /// before each with the line's 0-based index, says so; returns the offset
  /// of the first line not read (lines.size() when all were).
  template <typename GoOn>
  size_t ParseLinesWhile(std::string_view lines, GoOn&& go_on);

  void set_frame(const FrameFields* frame) { frame_ = frame; }
  StderrOutput* out() const { return out_; }
  RecordAssembler& assembler() { return assembler_; }
  const RecordAssembler& assembler() const { return assembler_; }
  const LineCounts& counts() const { return counts_; }
  uint64_t line_no() const { return line_no_; }
  const std::shared_ptr<const PrefixMatcher>& matcher() const { return matcher_; }
  /// Bumped each time another prefix was taken from a line on.
  unsigned matcher_generation() const { return matcher_generation_; }

  /// The state a line's reading depends on besides the open records.
  struct Mood {
    bool in_message = false;  // the line before belongs to a message
    bool tabs_seen = false;   // a continuation line kept its TAB (so all did)
    PartLabel last_label = PartLabel::kPrimary;  // of the last prefixed line
  };
  Mood mood() const { return mood_; }
  void set_mood(const Mood& mood) { mood_ = mood; }
  /// Whether another prefix may still be taken from a line on: the
  /// redetector's tries are not spent (a part's reader: as the real one's
  /// were when the part began).
  bool MayRedetect() const { return redetect_ ? redetect_->enabled() : may_redetect_; }
  void set_may_redetect(bool may) { may_redetect_ = may; }
  /// The line where a part's reader met a line the real one could have
  /// retried the prefix on (0: none): from there on, it is not right.
  uint64_t stopped_at() const { return stopped_at_; }
  /// The last line read as a continuation only because no TAB line had
  /// come yet (0: none).
  uint64_t last_tabless_at() const { return last_tabless_at_; }

  /// Takes over `part`'s state at the end of its lines, a part read from
  /// a state equal to this one's now: its records (line numbers shifted by
  /// `line_shift`), its mood, and the counts it added after `counted`.
  void TakeOver(StderrLines& part, const LineCounts& counted, uint64_t line_shift);

 private:
  void Parse(std::string_view line, uint64_t line_no, size_t at);
  void Prefixed(PartLabel label);
  void Continuation(std::string_view text, std::string_view line, uint64_t line_no);
  void NotPrefixed(std::string_view line, uint64_t line_no);
  bool SkipFast(std::string_view line, uint64_t line_no, size_t at, size_t raw_size,
                PartLabel* label);
  std::optional<LabelInfo> FindLabel(std::string_view line, size_t at, size_t raw_size,
                                     size_t* start, std::string_view* word) const;
  void UseFrame(PrefixedLine* parsed) const;
  bool Redetect(std::string_view line, uint64_t line_no);
  void Unparsed(std::string_view line, uint64_t line_no);

  std::string file_;
  std::shared_ptr<const PrefixMatcher> matcher_;
  unsigned matcher_generation_ = 0;
  PrefixRedetector* redetect_;
  StderrOutput* out_;
  RecordAssembler assembler_;
  SessionInfo session_;  // reused for every line: no allocation per line
  LineCounts counts_;
  Mood mood_;
  bool may_redetect_ = false;  // without a redetector: as the real reader's
  uint64_t stopped_at_ = 0;
  uint64_t last_tabless_at_ = 0;
  const FrameFields* frame_ = nullptr;  // during a framed line only
  uint64_t line_no_ = 0;  // of the last line ParseLines() read
  LineMarks marks_;       // of the lines ParseLines() reads
};

template <typename GoOn>
size_t StderrLines::ParseLinesWhile(std::string_view lines, GoOn&& go_on) {
  size_t p = 0;
  for (size_t index = 0; p < lines.size() && go_on(index); ++index) {
    size_t nl = lines.find('\n', p);
    if (nl == std::string_view::npos) nl = lines.size();
    ParseLine(lines.substr(p, nl - p), ++line_no_);
    p = nl + 1;
  }
  return std::min(p, lines.size());
}

}  // namespace lockgraph
