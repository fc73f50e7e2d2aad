// A cheap test a line must pass before a log_line_prefix's RE2 can match it:
// the prefix's literal text (up to %q, after which all is optional) in order,
// and a leading %m or %t as its fixed digits. DetectPrefix tries 18 known
// prefixes on every input, and compiling one (the severity labels of every
// language included) costs about 5 M instructions: a prefix whose skeleton
// no line fits is never compiled. Necessary, never sufficient: a line that
// fails cannot match (tests/unit/test_prefix_skeleton.cc checks this on the
// samples and the corpus); one that passes still goes through the RE2.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lockgraph {

class PrefixSkeleton {
 public:
  /// Reads `prefix` as PrefixMatcher::Compile does (escapes, padding, %%,
  /// %q, the trailing blanks it matches loosely).
  explicit PrefixSkeleton(std::string_view prefix);

  /// False only when no line PrefixMatcher(prefix) matches can be `line`.
  bool MayMatch(std::string_view line) const;

 private:
  std::vector<std::string> literals_;  // in order, before any %q
  enum class Time { kNone, kMs, kS } time_ = Time::kNone;  // a leading %m or %t, unpadded
  char after_time_ = 0;  // the literal right after it, or 0 (an escape, the end)
};

}  // namespace lockgraph
