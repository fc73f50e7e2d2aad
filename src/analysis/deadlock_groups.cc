// See deadlock_groups.h.
#include "analysis/deadlock_groups.h"

#include <algorithm>

namespace lockgraph {
namespace {

void AddRule(std::vector<std::string>* rules, const std::string& id) {
  auto at = std::lower_bound(rules->begin(), rules->end(), id);
  if (at == rules->end() || *at != id) rules->insert(at, id);
}

}  // namespace

void DeadlockGrouper::Add(const Event& event, const DeadlockSignature& signature) {
  auto [it, added] = index_.emplace(signature.id, groups_.size());
  if (added) {
    DeadlockGroup g;
    g.signature = signature.id;
    g.first_time = event.time;
    g.first_source = event.source;
    g.members = signature.members;
    groups_.push_back(std::move(g));
  }
  DeadlockGroup& g = groups_[it->second];
  ++g.count;
  g.last_time = event.time;
  g.last_source = event.source;
  for (const Finding& f : event.findings) AddRule(&g.rules, f.rule_id);
}

std::vector<DeadlockGroup> DeadlockGrouper::Groups(const std::vector<Finding>& run_findings) const {
  std::vector<DeadlockGroup> out = groups_;
  for (const Finding& f : run_findings)
    for (const std::string& sig : f.signatures) {
      auto it = index_.find(sig);
      if (it != index_.end()) AddRule(&out[it->second].rules, f.rule_id);
    }
  std::stable_sort(out.begin(), out.end(), [](const DeadlockGroup& a, const DeadlockGroup& b) {
    return a.count > b.count;
  });
  return out;
}

}  // namespace lockgraph
