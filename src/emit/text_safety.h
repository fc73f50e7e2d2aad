// Making log text safe for an output: invalid UTF-8 becomes U+FFFD, and
// control characters are shown escaped, so a hostile query can neither
// break a format nor drive a terminal. Each emitter adds its own quoting.
#pragma once

#include <string>
#include <string_view>

#include "text/utf8.h"  // ValidUtf8, for the emitters

namespace lockgraph {


/// ValidUtf8, and control characters other than '\n' and '\t' written as
/// "\x1b" (so ESC, BEL and NUL reach no terminal).
std::string PrintableText(std::string_view text);

/// PrintableText with '\n' written as "\n" too: for names, ids and labels,
/// which the text outputs print on one line.
std::string OneLineText(std::string_view text);

/// PrintableText with `indent` after every line break: multi-line text
/// (queries) under a heading in the text outputs.
std::string IndentedText(std::string_view text, const std::string& indent);

}  // namespace lockgraph
