// The fields of a log_line_prefix read without the regex, for the lines
// where the regex's first choices fit. PrefixMatcher's RE2 stays the
// authority: this walk either returns exactly what RE2 would capture, or
// says it cannot tell. Why that is exact: docs/postgresql.md#prefix-walk.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class StringPiece;
}

namespace lockgraph {

/// One piece of a compiled prefix, in the order of the regex's parts.
struct PrefixToken {
  enum class Kind {
    kLiteral,       // `text`, as written
    kTime,          // %m (`with_ms`) or %t, %s: the date, the time, a zone
    kEpoch,         // %n: \d+\.\d{3}
    kDigits,        // %p %l %x: \d+; %P: \d* (`may_be_empty`)
    kSignedDigits,  // %Q: -?\d+
    kSession,       // %c: hex.hex
    kVxid,          // %v: (?:-?\d+/\d+)?
    kState,         // %e: five of [0-9A-Z]
    kWord,          // %u %d: [^ ]*? (lazy)
    kAny,           // %a %h %r %L %b %i %*: .*? (lazy)
    kOptional,      // %q: the rest is an optional group, closed at the end
  };
  Kind kind = Kind::kLiteral;
  std::string text;
  bool with_ms = false;
  bool may_be_empty = false;
  int group = 0;  // the RE2 capture group, 1-based; 0 for none
};

/// A prefix as a list of tokens, walked once from left to right. At each
/// choice (how many digits, where a lazy field ends, whether a zone
/// follows the time) it takes the one RE2 tries first among those that the
/// next token, when it is a literal or the end, does not refuse at once.
/// When the walk reaches the end, that path is the first one RE2's
/// leftmost-first search accepts, so the captures are RE2's. When a token
/// fails, RE2 might still match by another choice: the walk does not go
/// back and answers "cannot tell". Immutable after building; thread-safe.
class PrefixWalk {
 public:
  /// Appends a token (PrefixCompiler, in the order of the regex).
  void Add(PrefixToken token);
  /// A prefix part the walk does not follow (a padded escape): every line
  /// then goes to RE2.
  void GiveUp() { usable_ = false; }

  /// True when `text` is the whole prefix by the first choices: then
  /// groups[0] is `text` and groups[1..ngroups-1] what RE2's
  /// Match(ANCHOR_BOTH) would give. False: cannot tell (no match, or a
  /// match only RE2 can find); *groups is then unspecified.
  bool Match(std::string_view text, re2::StringPiece* groups, int ngroups) const;

  /// What the token after a step demands of the text right after it (a
  /// literal, the end, or nothing checked); defined in prefix_walk.cc.
  struct Next;

 private:
  Next NextOf(size_t i) const;
  /// Moves *pos past token `t` by its first choice that `next` accepts.
  bool Step(const PrefixToken& t, const Next& next, std::string_view text, size_t* pos) const;

  std::vector<PrefixToken> tokens_;
  bool usable_ = true;
};

}  // namespace lockgraph
