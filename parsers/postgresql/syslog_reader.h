// Reads PostgreSQL's syslog output (reference §6.5, §9.11) into LogRecords:
// syslog framing off, chunks joined into stderr-style physical lines
// (SyslogLineJoiner), PostgreSQL's own log_line_prefix matched inside
// (PrefixMatcher), parts assembled per process (RecordAssembler).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/flushable.h"
#include "parsers/input_format.h"
#include "parsers/postgresql/prefix.h"
#include "parsers/postgresql/prefix_redetect.h"
#include "parsers/postgresql/record_assembler.h"
#include "parsers/postgresql/record_reader.h"
#include "parsers/postgresql/syslog_chunks.h"

namespace lockgraph {

/// Detects the log_line_prefix inside the syslog messages of `head` (TAB
/// continuations and lines without syslog framing left out). Returns
/// nullopt when none fits most messages; *matched gets the matching count.
std::optional<std::string> DetectSyslogPrefix(const std::vector<std::string>& head,
                                              int* matched);

/// Streaming syslog reader. A line is parsed when it has syslog framing and
/// belongs to a part that starts with the prefix and a label; otherwise it
/// is unparsed. When the prefix has no %p the syslog pid is the record's
/// pid; with no time escape, the syslog time is its time. Not thread-safe;
/// not copyable.
class SyslogReader {
 public:
  /// Lines held to detect the prefix when none is given.
  static constexpr size_t kDetectLines = 200;

  /// `prefix`: log_line_prefix inside the messages as in postgresql.conf;
  /// nullopt: detected from the first kDetectLines lines (those lines are
  /// held, then read). An unusable or undetectable prefix gives a warning
  /// and the catch-all prefix "%*" (any text before the severity).
  /// `redetect`: the prefix was detected on the first lines, not given: a
  /// later message that looks prefixed but does not fit makes the reader
  /// detect it again (docs/postgresql.md#prefix).
  SyslogReader(std::string file, RecordCallbacks callbacks, std::optional<std::string> prefix,
               bool redetect = false);
  /// A reader of a block's part (syslog_blocks.h), with the real reader's
  /// prefix: it never takes another, but notes the first line where the
  /// real one, when `may_redetect`, could (stopped_at()).
  SyslogReader(std::string file, RecordCallbacks callbacks,
               std::shared_ptr<const PrefixMatcher> matcher, bool may_redetect);
  SyslogReader(const SyslogReader&) = delete;
  SyslogReader& operator=(const SyslogReader&) = delete;

  void ParseLine(std::string_view line, uint64_t line_no);
  /// ParseLine() for a line already split: `line` without its '\r', and
  /// `frame` its ParseSyslogFrame(), or null when it has no framing.
  void ParseFramed(std::string_view line, const SyslogFrame* frame, uint64_t line_no);
  /// The input paused between whole messages (parsers/flushable.h): every
  /// message still open is complete; deliver it (see FlushMode), and go on
  /// reading.
  void Flush(FlushMode mode);
  void Finish();
  const LineCounts& counts() const { return counts_; }
  /// The prefix in use; empty until it is known.
  std::string prefix() const { return matcher_ ? matcher_->prefix() : std::string(); }

  // For a block read on several threads (syslog_blocks.h).
  const std::shared_ptr<const PrefixMatcher>& matcher() const { return matcher_; }
  /// Counts the prefixes taken after the first.
  unsigned matcher_generation() const { return matcher_generation_; }
  /// True when a line that does not fit may still make it take another.
  bool MayRedetect() const { return redetect_.enabled(); }
  /// True while the redetector still keeps lines of the input as evidence:
  /// each line must then be read by this reader.
  bool Sampling() const { return redetect_.WantsMore(); }
  /// A part's reader: the first line where the real reader could have
  /// taken another prefix, or 0.
  uint64_t stopped_at() const { return stopped_at_; }
  const RecordCallbacks& callbacks() const { return cb_; }
  /// Appends what tells this state from another's after the same lines:
  /// the joiner's parts and the assembler's records (their Fingerprint()).
  void Fingerprint(uint64_t line_shift, std::vector<uint64_t>* out) const;
  /// Goes on from `part`'s state: its joiner's parts and its assembler,
  /// line numbers shifted by `line_shift`; its counts but `counted`, those
  /// of the lines this reader read in its place.
  void TakeOver(SyslogReader& part, const LineCounts& counted, uint64_t line_shift);

 private:
  void UsePrefix(const std::string& prefix, const char* why_not);
  void DetectAndReplay();
  void Process(std::string_view line, const SyslogFrame* frame, uint64_t line_no);
  void OnPart(int64_t pid, std::string_view time, std::string_view line, uint64_t line_no);
  bool SkipPart(int64_t pid, std::string_view line, uint64_t line_no);
  bool Redetect(const SyslogFrame& frame, uint64_t line_no);
  void Warn(uint64_t line_no, std::string message);
  void Tell(Diagnostic::Severity severity, uint64_t line_no, std::string message);

  std::string file_;
  RecordCallbacks cb_;
  std::shared_ptr<const PrefixMatcher> matcher_;
  unsigned matcher_generation_ = 0;
  bool part_ = false;          // a block's part's reader
  bool may_redetect_ = false;  // a part's: the real reader may take another prefix
  uint64_t stopped_at_ = 0;
  std::vector<std::string> held_;  // while detecting the prefix
  uint64_t held_first_ = 0;
  SyslogLineJoiner joiner_;
  RecordAssembler assembler_;
  SessionInfo session_;  // reused for every part line
  PrefixedLine probe_;   // reused for is_part_start
  LineCounts counts_;
  PrefixRedetector redetect_;  // the first messages, for one the prefix does not fit
  std::string unescaped_;      // scratch for UnescapeSyslog
};

}  // namespace lockgraph
