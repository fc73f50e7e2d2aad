// Severity words and part labels of PostgreSQL server logs, in English and
// in the translations of reference §8, mapped to canonical English.
#pragma once

#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "parsers/postgresql/label_scan.h"
#include "parsers/postgresql/record_assembler.h"

namespace lockgraph {

struct LabelInfo {
  PartLabel label;
  std::string_view canonical;  // "ERROR", "DETAIL", ...
};

/// Looks up a severity word or part label (without the colon).
std::optional<LabelInfo> LookupLabel(std::string_view word);

/// The four words that label nearly every line of a log, as the first rows
/// of LookupLabel's table (labels.cc checks that they are).
inline constexpr LabelInfo kCommonLabels[] = {{PartLabel::kPrimary, "LOG"},
                                              {PartLabel::kStatement, "STATEMENT"},
                                              {PartLabel::kDetail, "DETAIL"},
                                              {PartLabel::kPrimary, "ERROR"}};
static_assert(kCommonLabels[0].canonical == "LOG" && kCommonLabels[1].canonical == "STATEMENT" &&
              kCommonLabels[2].canonical == "DETAIL" && kCommonLabels[3].canonical == "ERROR");

/// LookupLabel for the word that ends at `colon` in `line` when it is one
/// of the four common ones and starts the line or follows ' ', ']', ':' or
/// '>', which is where FindLabelStart's word starts: *start receives where
/// it starts. Null for any other word: the caller then finds and looks it
/// up. Inline, on every line of a log: the four words end in four
/// different letters, so the byte before the colon picks the one row to
/// compare. (A pointer to a constant, not an optional: GCC returned the
/// optional through the stack, and the caller's 16-byte load of it waited
/// for the callee's two 8-byte stores on every line.)
inline const LabelInfo* CommonLabelBefore(std::string_view line, size_t colon, size_t* start) {
  // `word` ends at `colon` as a whole word: compared at its constant size.
  auto ends_at = [&](const auto& word) {
    constexpr size_t n = sizeof word - 1;
    if (colon < n || std::memcmp(line.data() + colon - n, word, n) != 0) return false;
    const size_t from = colon - n;
    if (from > 0 && !IsLabelWordEnd(line[from - 1])) return false;
    *start = from;
    return true;
  };
  if (colon == 0 || colon > line.size()) return nullptr;
  switch (line[colon - 1]) {
    case 'G': return ends_at("LOG") ? &kCommonLabels[0] : nullptr;
    case 'T': return ends_at("STATEMENT") ? &kCommonLabels[1] : nullptr;
    case 'L': return ends_at("DETAIL") ? &kCommonLabels[2] : nullptr;
    case 'R': return ends_at("ERROR") ? &kCommonLabels[3] : nullptr;
  }
  return nullptr;
}

/// An RE2 alternation of every known word, longest first, already escaped.
const std::string& LabelAlternation();

/// An RE2 character class of every character of every known word: a
/// label is a run of them (PrefixMatcher's test before its full regex).
const std::string& LabelCharClass();

/// Canonical English severity for a csvlog error_severity value (which is
/// translated); unknown words are returned unchanged.
std::string_view CanonicalSeverity(std::string_view word);

}  // namespace lockgraph
