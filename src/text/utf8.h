// UTF-8 validity for every stage: a parser checks what it reads (jsonlog),
// an emitter cleans what it writes (emit/text_safety.h).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace lockgraph {

/// True when every byte is below 0x80. Code that reads text by hand where
/// RE2 would (whose '.' and \S take UTF-8 characters, never a broken
/// sequence) reads ASCII only and leaves the rest to RE2. Eight bytes a step.
inline bool IsAscii(std::string_view text) {
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

/// Replaces every invalid UTF-8 sequence by U+FFFD.
std::string ValidUtf8(std::string_view text);

}  // namespace lockgraph
