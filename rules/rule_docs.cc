// See rule_docs.h; the pages themselves are in the generated rule_docs_data.cc.
#include "rules/rule_docs.h"

namespace lockgraph {

std::string_view RuleDoc(std::string_view id) {
  for (size_t i = 0; i < kRuleDocCount; ++i)
    if (kRuleDocs[i].id == id) return kRuleDocs[i].text;
  return {};
}

std::vector<std::string_view> RuleDocIds() {
  std::vector<std::string_view> ids;
  for (size_t i = 0; i < kRuleDocCount; ++i)
    if (*kRuleDocs[i].id) ids.emplace_back(kRuleDocs[i].id);
  return ids;
}

}  // namespace lockgraph
