// Severity words and part labels of PostgreSQL server logs, in English and
// in the translations of reference §8, mapped to canonical English.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "parsers/postgresql/record_assembler.h"

namespace lockgraph {

struct LabelInfo {
  PartLabel label;
  std::string_view canonical;  // "ERROR", "DETAIL", ...
};

/// Looks up a severity word or part label (without the colon).
std::optional<LabelInfo> LookupLabel(std::string_view word);

/// LookupLabel for the word that ends at `colon` in `line` when it is one
/// of the four that label nearly every line (LOG, STATEMENT, DETAIL,
/// ERROR) and starts the line or follows ' ', ']', ':' or '>', which is
/// where FindLabelStart's word starts: *start receives where it starts.
/// Null for any other word: the caller then finds and looks it up. (A
/// pointer to a constant, not an optional: GCC returned the optional
/// through the stack, and the caller's 16-byte load of it waited for the
/// callee's two 8-byte stores on every line.)
const LabelInfo* CommonLabelBefore(std::string_view line, size_t colon, size_t* start);

/// An RE2 alternation of every known word, longest first, already escaped.
const std::string& LabelAlternation();

/// Canonical English severity for a csvlog error_severity value (which is
/// translated); unknown words are returned unchanged.
std::string_view CanonicalSeverity(std::string_view word);

}  // namespace lockgraph
