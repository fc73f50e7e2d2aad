// See prefix_walk.h. Each step lists its choices in RE2's order (a greedy
// run longest first, a lazy field shortest first, an optional part entered
// first) and takes the first one the next token accepts.
#include "parsers/postgresql/prefix_walk.h"

#include <re2/stringpiece.h>

#include <cstdint>
#include <cstring>

#include "text/number.h"
#include "text/utf8.h"

namespace lockgraph {
namespace {

bool IsHex(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f'); }
bool IsZone(char c) {  // [A-Za-z0-9+:\-]
  return IsDigit(c) || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '+' ||
         c == ':' || c == '-';
}
bool IsStateChar(char c) { return IsDigit(c) || (c >= 'A' && c <= 'Z'); }

template <typename Pred>
size_t RunOf(std::string_view text, size_t from, Pred pred) {
  size_t end = from;
  while (end < text.size() && pred(text[end])) ++end;
  return end - from;
}

// What %m and %t print before the zone: 'd' is a digit.
constexpr std::string_view kTimeShape = "dddd-dd-dd dd:dd:dd.ddd";

}  // namespace

void PrefixWalk::Add(PrefixToken token) {
  if (token.kind == PrefixToken::Kind::kLiteral && token.text.empty()) return;
  if (token.kind == PrefixToken::Kind::kLiteral && !tokens_.empty() &&
      tokens_.back().kind == PrefixToken::Kind::kLiteral) {
    tokens_.back().text += token.text;
    return;
  }
  tokens_.push_back(std::move(token));
}

struct PrefixWalk::Next {
  enum class Kind { kAnything, kLiteral, kEnd } kind = Kind::kAnything;
  std::string_view literal;

  /// Whether the next token can start at `at`: a literal must be there,
  /// the end must be only blanks; an escape or %q is not checked here.
  bool Fits(std::string_view text, size_t at) const {
    switch (kind) {
      case Kind::kLiteral:
        return at < text.size() && text[at] == literal[0] && text.substr(at).starts_with(literal);
      case Kind::kEnd: return text.find_first_not_of(' ', at) == std::string_view::npos;
      case Kind::kAnything: break;
    }
    return true;
  }
};

namespace {

using Next = PrefixWalk::Next;

// A greedy run from `from`, `longest` bytes at most and `shortest` at
// least: the longest the next token accepts.
bool LongestFirst(std::string_view text, const Next& next, size_t from, size_t longest,
                  size_t shortest, size_t* pos) {
  for (size_t k = longest + 1; k-- > shortest;)
    if (next.Fits(text, from + k)) {
      *pos = from + k;
      return true;
    }
  return false;
}

// %m, %t, %s: the fixed date and time, then (?: zone+)?, the zone longest
// first, then none.
bool StepTime(const PrefixToken& t, std::string_view text, const Next& next, size_t* pos) {
  const size_t p = *pos;
  const std::string_view shape = t.with_ms ? kTimeShape : kTimeShape.substr(0, 19);
  if (text.size() - p < shape.size()) return false;
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] == 'd' ? !IsDigit(text[p + i]) : text[p + i] != shape[i]) return false;
  const size_t after = p + shape.size();
  if (after < text.size() && text[after] == ' ') {
    const size_t zone = RunOf(text, after + 1, IsZone);
    if (zone > 0 && LongestFirst(text, next, after + 1, zone, 1, pos)) return true;
  }
  if (!next.Fits(text, after)) return false;
  *pos = after;
  return true;
}

// %n: \d+\.\d{3}; shorter than the whole run, a digit would follow, not '.'.
bool StepEpoch(std::string_view text, size_t* pos) {
  const size_t whole = RunOf(text, *pos, IsDigit);
  const size_t dot = *pos + whole;
  if (whole == 0 || dot + 4 > text.size() || text[dot] != '.') return false;
  for (size_t i = 1; i <= 3; ++i)
    if (!IsDigit(text[dot + i])) return false;
  *pos = dot + 4;
  return true;
}

// %c: [0-9a-f]+\.[0-9a-f]+, the first run whole (else a hex digit, not
// '.', would follow it).
bool StepSession(std::string_view text, const Next& next, size_t* pos) {
  const size_t first = RunOf(text, *pos, IsHex);
  const size_t second = *pos + first + 1;
  if (first == 0 || second > text.size() || text[second - 1] != '.') return false;
  return LongestFirst(text, next, second, RunOf(text, second, IsHex), 1, pos);
}

// %v: (?:-?\d+/\d+)?, entered first with its last run longest first, then
// skipped.
bool StepVxid(std::string_view text, const Next& next, size_t* pos) {
  const size_t p = *pos;
  const size_t from = p + (p < text.size() && text[p] == '-');
  const size_t backend = RunOf(text, from, IsDigit);
  const size_t local = from + backend + 1;
  if (backend > 0 && local <= text.size() && text[local - 1] == '/') {
    const size_t run = RunOf(text, local, IsDigit);
    if (run > 0 && LongestFirst(text, next, local, run, 1, pos)) return true;
  }
  if (!next.Fits(text, p)) return false;
  *pos = p;
  return true;
}

// %e: five of [0-9A-Z].
bool StepState(std::string_view text, size_t* pos) {
  if (text.size() - *pos < 5) return false;
  for (size_t i = 0; i < 5; ++i)
    if (!IsStateChar(text[*pos + i])) return false;
  *pos += 5;
  return true;
}

// %u %d ([^ ]*?) and %a and the others (.*?): lazy, the shortest the next
// token accepts; with a literal next, its first place (within the run of
// non-blanks for [^ ]).
bool StepLazy(bool any, std::string_view text, const Next& next, size_t* pos) {
  const size_t p = *pos;
  const size_t run = any ? text.size() - p : RunOf(text, p, [](char c) { return c != ' '; });
  if (next.kind == Next::Kind::kLiteral) {
    const size_t at = text.find(next.literal, p);
    if (at == std::string_view::npos || at > p + run) return false;
    *pos = at;
    return true;
  }
  for (size_t k = 0; k <= run; ++k)
    if (next.Fits(text, p + k)) {
      *pos = p + k;
      return true;
    }
  return false;
}

}  // namespace

PrefixWalk::Next PrefixWalk::NextOf(size_t i) const {
  Next next;
  if (i + 1 == tokens_.size()) {
    next.kind = Next::Kind::kEnd;  // then " *" and the end of the prefix
  } else if (tokens_[i + 1].kind == PrefixToken::Kind::kLiteral) {
    next.kind = Next::Kind::kLiteral;
    next.literal = tokens_[i + 1].text;
  }
  return next;
}

bool PrefixWalk::Match(std::string_view text, re2::StringPiece* groups, int ngroups) const {
  if (!usable_) return false;
  // RE2 reads UTF-8 by characters ('.' never matches a broken sequence):
  // only ASCII is walked here.
  if (!IsAscii(text)) return false;
  size_t pos = 0;
  for (size_t i = 0; i < tokens_.size(); ++i) {
    const PrefixToken& t = tokens_[i];
    const size_t start = pos;
    if (!Step(t, NextOf(i), text, &pos)) return false;
    if (t.group > 0 && t.group < ngroups)
      groups[t.group] = re2::StringPiece(text.data() + start, pos - start);
  }
  if (text.find_first_not_of(' ', pos) != std::string_view::npos) return false;
  groups[0] = re2::StringPiece(text.data(), text.size());
  return true;
}

bool PrefixWalk::Step(const PrefixToken& t, const Next& next, std::string_view text,
                      size_t* pos) const {
  using Kind = PrefixToken::Kind;
  const size_t p = *pos;
  switch (t.kind) {
    case Kind::kLiteral:
      if (!text.substr(p).starts_with(t.text)) return false;
      *pos = p + t.text.size();
      return true;
    case Kind::kOptional:
      return true;  // entered first; the walk never tries it skipped
    case Kind::kTime:
      return StepTime(t, text, next, pos);
    case Kind::kEpoch:
      return StepEpoch(text, pos);
    case Kind::kDigits:
      return LongestFirst(text, next, p, RunOf(text, p, IsDigit), t.may_be_empty ? 0 : 1, pos);
    case Kind::kSignedDigits: {
      // -?\d+: a '-' that is there is taken (\d+ cannot start at it).
      const size_t from = p + (p < text.size() && text[p] == '-');
      return LongestFirst(text, next, from, RunOf(text, from, IsDigit), 1, pos);
    }
    case Kind::kSession:
      return StepSession(text, next, pos);
    case Kind::kVxid:
      return StepVxid(text, next, pos);
    case Kind::kState:
      return StepState(text, pos);
    case Kind::kWord:
    case Kind::kAny:
      return StepLazy(t.kind == Kind::kAny, text, next, pos);
  }
  return false;
}

}  // namespace lockgraph
