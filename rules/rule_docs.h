// The rule pages (docs/rules/<ID>.md), compiled into the binary at build
// time by cmake/embed_rule_docs.cmake, for `lockgraph explain`.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace lockgraph {

struct EmbeddedDoc {
  const char* id;    // file name without .md: "PG001"
  const char* text;  // the Markdown page
};

/// The page of rule `id` (exact, upper case, as the file is named); empty
/// when there is none.
std::string_view RuleDoc(std::string_view id);

/// IDs of every embedded page, sorted.
std::vector<std::string_view> RuleDocIds();

// Defined in the generated rule_docs_data.cc.
extern const EmbeddedDoc kRuleDocs[];
extern const size_t kRuleDocCount;

}  // namespace lockgraph
