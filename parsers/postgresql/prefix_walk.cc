// See prefix_walk.h. Each step lists its choices in RE2's order (a greedy
// run longest first, a lazy field shortest first, an optional part entered
// first) and takes the first one the next token accepts.
#include "parsers/postgresql/prefix_walk.h"

#include <re2/stringpiece.h>

#include <cstdint>
#include <cstring>

namespace lockgraph {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
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

bool IsAscii(std::string_view text) {
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t eight;
    std::memcpy(&eight, text.data() + i, 8);
    if (eight & 0x8080808080808080u) return false;
  }
  for (; i < text.size(); ++i)
    if (static_cast<unsigned char>(text[i]) >= 0x80) return false;
  return true;
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
  // Whether the next token can start at `at`: a literal must be there, the
  // end must be only blanks; an escape or %q is not checked here.
  auto fits = [&](size_t at) {
    switch (next.kind) {
      case Next::Kind::kLiteral:
        return at < text.size() && text[at] == next.literal[0] &&
               text.substr(at).starts_with(next.literal);
      case Next::Kind::kEnd: return text.find_first_not_of(' ', at) == std::string_view::npos;
      case Next::Kind::kAnything: break;
    }
    return true;
  };
  // A greedy run of `longest` bytes from `from`, at least `shortest`.
  auto longest_first = [&](size_t from, size_t longest, size_t shortest) {
    for (size_t k = longest + 1; k-- > shortest;)
      if (fits(from + k)) {
        *pos = from + k;
        return true;
      }
    return false;
  };
  auto shortest_first = [&](size_t longest) {
    for (size_t k = 0; k <= longest; ++k)
      if (fits(p + k)) {
        *pos = p + k;
        return true;
      }
    return false;
  };
  switch (t.kind) {
    case Kind::kLiteral:
      if (text.substr(p).substr(0, t.text.size()) != t.text) return false;
      *pos = p + t.text.size();
      return true;
    case Kind::kOptional:
      return true;  // entered first; the walk never tries it skipped
    case Kind::kTime: {
      const std::string_view shape = t.with_ms ? kTimeShape : kTimeShape.substr(0, 19);
      if (text.size() - p < shape.size()) return false;
      for (size_t i = 0; i < shape.size(); ++i)
        if (shape[i] == 'd' ? !IsDigit(text[p + i]) : text[p + i] != shape[i]) return false;
      const size_t after = p + shape.size();
      // (?: zone+)?: the zone, longest first, then none.
      if (after < text.size() && text[after] == ' ') {
        const size_t zone = RunOf(text, after + 1, IsZone);
        if (zone > 0 && longest_first(after + 1, zone, 1)) return true;
      }
      if (!fits(after)) return false;
      *pos = after;
      return true;
    }
    case Kind::kEpoch: {
      const size_t whole = RunOf(text, p, IsDigit);
      const size_t dot = p + whole;
      if (whole == 0 || dot + 4 > text.size() || text[dot] != '.') return false;
      for (size_t i = 1; i <= 3; ++i)
        if (!IsDigit(text[dot + i])) return false;
      *pos = dot + 4;
      return true;
    }
    case Kind::kDigits:
      return longest_first(p, RunOf(text, p, IsDigit), t.may_be_empty ? 0 : 1);
    case Kind::kSignedDigits: {
      // -?\d+: a '-' that is there is taken (\d+ cannot start at it).
      const size_t from = p + (p < text.size() && text[p] == '-');
      return longest_first(from, RunOf(text, from, IsDigit), 1);
    }
    case Kind::kSession: {
      // Shorter than the whole first run, a hex digit would follow, not '.'.
      const size_t first = RunOf(text, p, IsHex);
      const size_t second = p + first + 1;
      if (first == 0 || second > text.size() || text[second - 1] != '.') return false;
      return longest_first(second, RunOf(text, second, IsHex), 1);
    }
    case Kind::kVxid: {
      // (?:-?\d+/\d+)?: entered first, with its last run longest first.
      const size_t from = p + (p < text.size() && text[p] == '-');
      const size_t backend = RunOf(text, from, IsDigit);
      const size_t local = from + backend + 1;
      if (backend > 0 && local <= text.size() && text[local - 1] == '/') {
        const size_t run = RunOf(text, local, IsDigit);
        if (run > 0 && longest_first(local, run, 1)) return true;
      }
      if (!fits(p)) return false;
      *pos = p;
      return true;
    }
    case Kind::kState:
      if (text.size() - p < 5) return false;
      for (size_t i = 0; i < 5; ++i)
        if (!IsStateChar(text[p + i])) return false;
      *pos = p + 5;
      return true;
    case Kind::kWord: {
      const size_t run = RunOf(text, p, [](char c) { return c != ' '; });
      if (next.kind == Next::Kind::kLiteral) {  // its first place, if within the run
        const size_t at = text.find(next.literal, p);
        if (at == std::string_view::npos || at > p + run) return false;
        *pos = at;
        return true;
      }
      return shortest_first(run);
    }
    case Kind::kAny:
      if (next.kind == Next::Kind::kLiteral) {
        const size_t at = text.find(next.literal, p);
        if (at == std::string_view::npos) return false;
        *pos = at;
        return true;
      }
      if (next.kind == Next::Kind::kEnd) {
        const size_t last = text.find_last_not_of(' ');
        *pos = last == std::string_view::npos || last < p ? p : last + 1;
        return true;
      }
      return true;  // anything may follow: the empty field comes first
  }
  return false;
}

}  // namespace lockgraph
