// log_line_prefix handling: compiles a prefix exactly as written in
// postgresql.conf into an RE2 matcher, and detects the prefix of an unknown
// stderr log from its first lines. Escapes: docs/postgresql.md#prefix.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/postgresql/label_scan.h"
#include "parsers/postgresql/labels.h"
#include "parsers/postgresql/prefix_walk.h"
#include "parsers/postgresql/record_assembler.h"

namespace re2 {
class RE2;
class StringPiece;
}

namespace lockgraph {

/// Immutable after Compile() but for its general regex, compiled once on
/// first use under std::call_once; safe to share between threads.
class PrefixMatcher {
 public:
  /// Compiles `log_line_prefix` (e.g. "%m [%p] %q%u@%d "). Returns nullptr
  /// and sets *error on an unusable prefix.
  static std::unique_ptr<PrefixMatcher> Compile(std::string_view prefix,
                                                std::string* error);
  ~PrefixMatcher();

  /// Splits a physical line into prefix fields, part label and text.
  /// Returns false when the line does not start with the prefix followed
  /// by a known label (then it is a continuation or not understood).
  /// `session` receives the prefix's session fields; string_views in *out
  /// point into `line`.
  bool Match(std::string_view line, PrefixedLine* out,
             SessionInfo* session) const;

  /// The pid of a line from its prefix part alone (the text before the
  /// label), by the literal text around %p ("[" and "]" in "%m [%p] "),
  /// without the regex. nullopt when that cannot be done safely.
  std::optional<int64_t> QuickPid(std::string_view prefix) const;

  /// The regex of the prefix alone (no label), matched ANCHOR_BOTH with
  /// 1 + prefix_groups() submatches, and the walk tried before it: for
  /// tests that hold the two to each other.
  const re2::RE2& prefix_regex() const { return *prefix_re_; }
  /// The prefix with the label (matched ANCHOR_START), and the test Match()
  /// asks before it: the prefix, then a run of LabelCharClass() and a colon.
  /// For tests that hold the second to be implied by the first.
  const re2::RE2& full_regex() const { return FullRegex(); }
  const re2::RE2& label_gate() const { return LabelGate(); }
  const PrefixWalk& walk() const { return walk_; }
  int prefix_groups() const { return ngroups_ - 2; }

  const std::string& prefix() const { return prefix_; }
  bool has_pid() const { return pid_group_ > 0; }
  bool has_time() const { return time_group_ > 0; }

 private:
  PrefixMatcher() = default;
  void Fill(std::string_view line, const re2::StringPiece* groups, const LabelInfo& info,
            std::string_view sqlstate, std::string_view text, PrefixedLine* out,
            SessionInfo* session) const;

  std::string prefix_;
  // Prefix + label, the general case: compiled on first use (FullRegex).
  struct LazyRegex {
    std::once_flag once;
    std::string pattern;
    std::unique_ptr<re2::RE2> re;
  };
  static const re2::RE2& Compiled(LazyRegex* lazy);
  const re2::RE2& FullRegex() const;
  const re2::RE2& LabelGate() const;
  std::unique_ptr<LazyRegex> full_;
  // The prefix, then a run of label characters and the colon: what the
  // full regex needs at the least, compiled on first use too (LabelGate).
  std::unique_ptr<LazyRegex> gate_;
  std::unique_ptr<re2::RE2> prefix_re_;  // the prefix alone, for the fast path
  PrefixWalk walk_;  // prefix_re_'s first choices, tried before it
  std::string pid_before_, pid_after_;   // literal text around %p
  bool pid_at_start_ = false;
  int ngroups_ = 0;
  // 1-based capture group of each escape; 0 when the prefix lacks it.
  int time_group_ = 0, pid_group_ = 0, user_group_ = 0, db_group_ = 0,
      app_group_ = 0, host_group_ = 0, session_group_ = 0, line_group_ = 0,
      xid_group_ = 0, vxid_group_ = 0, state_group_ = 0, tag_group_ = 0,
      btype_group_ = 0, qid_group_ = 0, label_group_ = 0, sqlstate_group_ = 0;
  friend class PrefixCompiler;
};

/// The prefixes tried when none is given, most common first.
const std::vector<std::string>& KnownPrefixes();

/// Picks the prefix under which most of `head`'s non-continuation lines
/// parse. Returns nullopt when fewer than half of them parse under any.
std::optional<std::string> DetectPrefix(const std::vector<std::string>& head,
                                        int* matched_lines);

}  // namespace lockgraph
