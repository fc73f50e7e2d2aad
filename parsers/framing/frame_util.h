// Small helpers shared by the framings: anchored regex matching into
// string_views, ANSI colour codes, RFC 3339 timestamps.
#pragma once

#include <cstddef>
#include <string_view>

namespace re2 {
class RE2;
}

namespace lockgraph {

struct StrippedLine;

/// Matches `re` at the start of `line`; fills groups[0..n) (group 0: the
/// whole match; an unmatched group is an empty view with a null data()).
/// Returns false when it does not match. `n` is at most 10.
bool MatchFrame(const re2::RE2& re, std::string_view line, std::string_view* groups, int n);

/// `s` without the ANSI SGR sequences (ESC [ ... m) at its start.
std::string_view SkipAnsi(std::string_view s);

/// The length of an RFC 3339 timestamp at the start of `s`
/// ("2026-12-02T10:15:18.556123456Z", "2019-03-14T00:23:00+00:00"), 0 when
/// there is none. *fraction_digits (may be null) gets the digits after '.'.
size_t Rfc3339Length(std::string_view s, size_t* fraction_digits);

/// Fills *out with a framed line of `stream` whose text is `rest`, after an
/// optional RFC 3339 time and a space (docker and kubectl `--timestamps`),
/// which becomes out->time.
void TakeTimedLine(std::string_view stream, std::string_view rest, StrippedLine* out);

}  // namespace lockgraph
