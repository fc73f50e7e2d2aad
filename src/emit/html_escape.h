// Escaping for the HTML report: every text that came from a log passes
// through HtmlText (element content and quoted attribute values alike), so
// that a query holding `</script>`, quotes or invalid UTF-8 stays text.
#pragma once

#include <string>
#include <string_view>

namespace lockgraph {

/// Valid UTF-8 (U+FFFD for invalid bytes), control characters other than
/// '\n' and '\t' shown as "\x1b" (NUL never reaches the page), and & < > "
/// ' as character references. Safe in element content and in attribute
/// values quoted with " or '.
std::string HtmlText(std::string_view text);

/// An anchor id made of [A-Za-z0-9_-] only ("rule-PG001", "group-930e...").
std::string HtmlId(std::string_view prefix, std::string_view key);

}  // namespace lockgraph
