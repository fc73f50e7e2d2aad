// Finding the label of a stderr line ("LOG:  ", "DETAIL:  ") without a
// regex. This runs on every line of a log.
#pragma once

#include <cstddef>
#include <string_view>

namespace lockgraph {

/// The bytes at the start of a line that are searched for its label.
inline constexpr size_t kLabelSearchBytes = 512;

/// The bytes a label's word starts after: the usual ends of a prefix.
inline bool IsLabelWordEnd(char c) { return c == ' ' || c == ']' || c == ':' || c == '>'; }

/// Where "WORD:  " starts in a stderr line (the label after the prefix);
/// *word receives WORD. npos when there is none (a plain size_t: GCC
/// returned an optional through the stack, a byte written and eight read
/// back, a stall on every line).
size_t FindLabelStart(std::string_view line, std::string_view* word);

/// Where the first ":  " of the line's first 512 bytes is, or npos: the
/// colon after FindLabelStart's word (LineMarks finds it for a block).
size_t FindLabelColon(std::string_view line);

/// FindLabelStart when the colon is already known (npos: none).
size_t LabelStartAt(std::string_view line, size_t colon, std::string_view* word);

}  // namespace lockgraph
