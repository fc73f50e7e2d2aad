// UTF-8 validity for every stage: a parser checks what it reads (jsonlog),
// an emitter cleans what it writes (emit/text_safety.h).
#pragma once

#include <string>
#include <string_view>

namespace lockgraph {

/// Replaces every invalid UTF-8 sequence by U+FFFD.
std::string ValidUtf8(std::string_view text);

}  // namespace lockgraph
