// The log_line_prefix detected on an input's first lines may not show all of
// it: a server's startup messages stop before the %q part, so "%m [%p] " fits
// them as well as "%m [%p] %q%u@%d " does (`tail -F` of a fresh server's log,
// sniffed before its first pause). A later line that looks prefixed (it has
// a label) but does not fit makes the detection run again over the first
// lines and that one. docs/postgresql.md#prefix.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/postgresql/prefix.h"

namespace lockgraph {

/// Used by the stderr and syslog readers. Not thread-safe; one per input.
class PrefixRedetector {
 public:
  /// `enabled`: the prefix was detected, not given with --prefix.
  explicit PrefixRedetector(bool enabled) : tries_left_(enabled ? kMaxTries : 0) {}

  /// A line (a syslog message's text) that fits the prefix in use: kept,
  /// among the first kSampleLines, as evidence for a later try.
  void Fits(std::string_view line) {
    if (WantsMore() && !line.empty() && line[0] != '\t') sample_.emplace_back(line);
  }
  /// False once Fits() keeps nothing more: a caller may skip making its line.
  bool WantsMore() const { return tries_left_ && sample_.size() < kSampleLines; }

  /// `line` does not fit `current`. When it looks prefixed (a label after
  /// some text) and tries are left (kMaxTries an input), detects the prefix
  /// again over the kept lines and `line`: returns the matcher of another
  /// prefix (never the "any text" fallback) that fits `line`, and sets
  /// *note to the diagnostic that says so; else null.
  std::unique_ptr<PrefixMatcher> Retry(std::string_view line, const PrefixMatcher& current,
                                       std::string* note);

  /// False once the tries are spent (or with --prefix): Retry() then
  /// returns null for every line.
  bool enabled() const { return tries_left_ > 0; }
  /// False when Retry() would return null for `line` whatever the lines
  /// kept: it does not look prefixed, or `current` is the catch-all.
  static bool MayTry(std::string_view line, const PrefixMatcher& current);

 private:
  static constexpr int kMaxTries = 32;
  static constexpr size_t kSampleLines = 256;
  int tries_left_;
  std::vector<std::string> sample_;
};

}  // namespace lockgraph
