// The server text that cloud envelopes carry (Cloud Logging textPayload,
// Azure properties.message) is stderr-format text: log_line_prefix, a
// label, the message. StderrPayload hands it to the stderr parser of
// parsers/postgresql (prefix matcher, record assembler, event builder),
// after undoing what the platforms add: AlloyDB's "[file.c:line]" tag after
// the label, Cloud SQL's "(k/n) " split of long lines into several
// entries, and embedded newlines without the server's TAB.
// See docs/postgresql.md#cloud-exports.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/input_format.h"

namespace lockgraph {

class PrefixMatcher;

/// The log_line_prefix of payload lines (their first lines, `samples`):
/// the platforms' own prefixes first, then DetectPrefix()'s list. Returns
/// "" with *matched = 0 when none fits half of them.
std::string DetectPayloadPrefix(const std::vector<std::string>& samples, int* matched);

/// AlloyDB's "ERROR:  [nbtinsert.c:671]  duplicate key ..." without the
/// "[file.c:line]  " tag; other lines unchanged.
std::string StripSourceTag(std::string_view line);

/// Azure's split message: `message` (a stderr line with its prefix) and,
/// when `detail` is not empty, a DETAIL line with the same prefix after it,
/// its newlines followed by a TAB as the server writes them.
std::string WithDetailLine(std::string message, std::string_view detail);

/// Not thread-safe; not copyable.
class StderrPayload {
 public:
  /// `prefix`: from DetectPayloadPrefix() (or --prefix); "" is "%*".
  StderrPayload(const std::string& file, const ParseOptions& options, const std::string& prefix,
                ParseSink& sink);
  ~StderrPayload();
  StderrPayload(const StderrPayload&) = delete;
  StderrPayload& operator=(const StderrPayload&) = delete;

  /// True when `payload` starts with a line under the prefix followed by a
  /// label, or is a later "(k/n) " part of a split line.
  bool Understood(std::string_view payload) const;
  /// Feeds one entry's text, in server order; `line_no` is the input line
  /// the entry starts on.
  void Feed(std::string_view payload, uint64_t line_no);
  /// The input paused between whole entries (parsers/flushable.h): records
  /// still open are complete; a split line waits for its last part.
  void Flush();
  void Finish();

 private:
  void FeedLines(std::string_view text, uint64_t line_no);

  std::unique_ptr<PrefixMatcher> matcher_;
  std::unique_ptr<LineParser> stderr_;
  std::string split_;        // the "(k/n) " parts of a long line read so far
  uint64_t split_line_ = 0;
  std::string scratch_;
};

}  // namespace lockgraph
