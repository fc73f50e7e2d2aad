// See frame_util.h.
#include "parsers/framing/frame_util.h"

#include "parsers/framing/framing.h"

#include <re2/re2.h>

namespace lockgraph {
namespace {

bool Digits(std::string_view s, size_t at, size_t n) {
  if (at + n > s.size()) return false;
  for (size_t i = at; i < at + n; ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

}  // namespace

bool MatchFrame(const re2::RE2& re, std::string_view line, std::string_view* groups, int n) {
  re2::StringPiece g[10];
  if (n > 10) n = 10;
  if (!re.Match(re2::StringPiece(line.data(), line.size()), 0, line.size(), RE2::ANCHOR_START,
                g, n))
    return false;
  for (int i = 0; i < n; ++i) groups[i] = std::string_view(g[i].data(), g[i].size());
  return true;
}

std::string_view SkipAnsi(std::string_view s) {
  while (s.size() >= 3 && s[0] == '\x1b' && s[1] == '[') {
    size_t i = 2;
    while (i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == ';')) ++i;
    if (i >= s.size() || s[i] != 'm') break;
    s.remove_prefix(i + 1);
  }
  return s;
}

size_t Rfc3339Length(std::string_view s, size_t* fraction_digits) {
  // YYYY-MM-DDTHH:MM:SS
  if (!Digits(s, 0, 4) || s.size() < 19 || s[4] != '-' || !Digits(s, 5, 2) || s[7] != '-' ||
      !Digits(s, 8, 2) || s[10] != 'T' || !Digits(s, 11, 2) || s[13] != ':' ||
      !Digits(s, 14, 2) || s[16] != ':' || !Digits(s, 17, 2))
    return 0;
  size_t i = 19, frac = 0;
  if (i < s.size() && s[i] == '.') {
    while (i + 1 + frac < s.size() && Digits(s, i + 1 + frac, 1)) ++frac;
    if (frac == 0) return 0;
    i += 1 + frac;
  }
  if (fraction_digits) *fraction_digits = frac;
  if (i < s.size() && s[i] == 'Z') return i + 1;
  if (i + 6 <= s.size() && (s[i] == '+' || s[i] == '-') && Digits(s, i + 1, 2) &&
      s[i + 3] == ':' && Digits(s, i + 4, 2))
    return i + 6;
  return 0;
}

void TakeTimedLine(std::string_view stream, std::string_view rest, StrippedLine* out) {
  size_t ts = Rfc3339Length(rest, nullptr);
  if (ts && rest.size() > ts && rest[ts] == ' ') {
    out->time = rest.substr(0, ts);
    rest.remove_prefix(ts + 1);
  }
  out->kind = StrippedLine::Kind::kLine;
  out->stream = stream;
  out->inner = rest;
}

}  // namespace lockgraph
