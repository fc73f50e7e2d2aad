// Finding the label of a stderr line ("LOG:  ", "DETAIL:  ") without a
// regex. This runs on every line of a log.
#pragma once

#include <cstddef>
#include <string_view>

namespace lockgraph {

/// Where "WORD:  " starts in a stderr line (the label after the prefix);
/// *word receives WORD. npos when there is none (a plain size_t: GCC
/// returned an optional through the stack, a byte written and eight read
/// back, a stall on every line).
size_t FindLabelStart(std::string_view line, std::string_view* word);

}  // namespace lockgraph
