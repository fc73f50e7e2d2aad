// Small text helpers shared by the readers of message text (messages.cc,
// context_frames.cc): RE2 pieces, leading integers, lines of a part.
#pragma once

#include <re2/re2.h>

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lockgraph::message_text {

inline re2::StringPiece Piece(std::string_view s) { return {s.data(), s.size()}; }
inline std::string Str(const re2::StringPiece& p) { return std::string(p.data(), p.size()); }

/// The integer `s` starts with; 0 when it starts with none.
inline int64_t ToInt(std::string_view s) {
  int64_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

/// The lines of `text`, split at '\n' (an empty text is one empty line).
inline std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

}  // namespace lockgraph::message_text
