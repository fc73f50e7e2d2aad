// The plug-in point for input formats. A format is one file that implements
// InputFormat and one line in RegisterBuiltinFormats() (parsers/registry.cc).
// Detection (Sniff) is separate from parsing (house style, after lnav).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/event.h"
#include "model/log_record.h"

namespace lockgraph {

/// Options a user may force on the command line.
struct ParseOptions {
  std::string log_line_prefix;  // --prefix; empty: detect
  bool has_prefix = false;      // true when --prefix was given (may be "")
  /// --show-records: keep the InnoDB record dumps (row data, customers' data
  /// included) in each MySQL lock's `text`; never without it.
  bool show_records = false;
};

/// Counts every input line falls into; nothing is dropped silently.
struct LineCounts {
  uint64_t total = 0;
  uint64_t parsed = 0;    // understood: belongs to a record of the format
  uint64_t skipped = 0;   // understood and deliberately passed over: blank
                          // lines between records, grep's "--" separators
  uint64_t unparsed = 0;  // not understood; listed with --show-unparsed
  /// Of `unparsed`: continuation lines (a TAB or spaces first) that came
  /// where no message was open to take them.
  uint64_t unattached = 0;

  /// Adds another parser's counts (a parser made of several: one per stream).
  LineCounts& operator+=(const LineCounts& c) {
    total += c.total;
    parsed += c.parsed;
    skipped += c.skipped;
    unparsed += c.unparsed;
    unattached += c.unattached;
    return *this;
  }
  /// Takes away counts taken earlier (what a part read before a point).
  LineCounts& operator-=(const LineCounts& c) {
    total -= c.total;
    parsed -= c.parsed;
    skipped -= c.skipped;
    unparsed -= c.unparsed;
    unattached -= c.unattached;
    return *this;
  }
};

/// What a framing's frame said about a line (parsers/framing/framing.h).
struct FrameFields {
  std::optional<int64_t> pid;  // Heroku's `app[postgres.PID]`
  std::string_view time;       // the frame's own time (docker -t, CloudWatch)
};

/// A line the parser did not understand, or a record it had to flag.
struct Diagnostic {
  enum class Severity { kNote, kWarning, kError };
  Severity severity = Severity::kWarning;
  std::string file;
  uint64_t line = 0;
  std::string message;
  std::string text;  // the offending line, if any
};

/// Where parsers deliver their output. Implementations must not throw.
class ParseSink {
 public:
  virtual ~ParseSink() = default;
  virtual void OnEvent(Event&& event) = 0;
  /// A line that was not understood (counted by the caller as unparsed).
  virtual void OnUnparsed(const std::string& file, uint64_t line,
                          std::string_view text) = 0;
  virtual void OnDiagnostic(Diagnostic&& diag) = 0;
  /// Work that makes events out of what was read (a record's events),
  /// handed over in input order with the calls above and given the sink
  /// its events go to. Run at once by default; a sink on a thread of its
  /// own runs it there, so that reading lines and making events overlap.
  virtual void Defer(std::function<void(ParseSink&)> work) { work(*this); }
};

/// Outcome of sniffing the first lines of an input (lnav: more than a bool).
struct SniffResult {
  enum class Verdict { kMatch, kNoMatch };
  Verdict verdict = Verdict::kNoMatch;
  int score = 0;           // matched lines; the highest score wins
  std::string reason;      // why not, or what was detected ("prefix '%m [%p] '")
  std::string detected;    // format-specific detail (a detected prefix)
  /// Matched only as a catch-all (stderr's "any text, then a label"): any
  /// specific match wins over it, whatever the scores.
  bool fallback = false;
};

/// Parses one input stream, line by line. Not thread-safe; one per input.
class LineParser {
 public:
  virtual ~LineParser() = default;
  /// `line` has no trailing '\n' (a trailing '\r' is kept: CRLF is handled
  /// by the parser). `line_no` is 1-based.
  virtual void ParseLine(std::string_view line, uint64_t line_no) = 0;
  /// A line taken out of a frame (parsers/framing/): `frame` holds what the
  /// frame knew, for a parser whose lines lack it (a prefix without %p or
  /// a time). The default ignores it.
  virtual void ParseFramedLine(std::string_view line, uint64_t line_no,
                               const FrameFields& frame) {
    (void)frame;
    ParseLine(line, line_no);
  }
  /// Called once before the first ParseLine with the lines the format was
  /// sniffed on (the first ~200), for what a parser learns about the whole
  /// input from them (stderr: whether continuation lines kept their TAB).
  virtual void Prepare(const std::vector<std::string>& head) {}
  /// End of input: flush open records (flagging cut ones).
  virtual void Finish() = 0;
  virtual const LineCounts& counts() const = 0;
};

class InputFormat {
 public:
  virtual ~InputFormat() = default;
  /// Stable name used by --input-format ("stderr", "csvlog", ...).
  virtual std::string Name() const = 0;
  virtual std::string Description() const = 0;
  /// Looks at up to the first ~200 lines of an input.
  virtual SniffResult Sniff(const std::vector<std::string>& head,
                            const ParseOptions& options) const = 0;
  /// True for a format that reads any text (application output): chosen
  /// when no format matches an input.
  virtual bool ReadsAnyText() const { return false; }
  /// `detected` is SniffResult::detected from a successful sniff, or empty.
  virtual std::unique_ptr<LineParser> CreateParser(
      const std::string& file, const ParseOptions& options,
      const std::string& detected, ParseSink& sink) const = 0;
};

/// The builtin formats, in sniffing priority order.
std::vector<std::unique_ptr<InputFormat>> RegisterBuiltinFormats();

}  // namespace lockgraph
