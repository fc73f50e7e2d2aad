// See deadlock_groups.h.
#include "analysis/deadlock_groups.h"

#include <algorithm>
#include <set>

namespace lockgraph {
namespace {

void AddRule(std::vector<std::string>* rules, const std::string& id) {
  auto at = std::lower_bound(rules->begin(), rules->end(), id);
  if (at == rules->end() || *at != id) rules->insert(at, id);
}

// What a member contributes to its cause: the shape of its statement, or
// (no statement) what it waits for.
std::string CauseKey(const SignatureMember& m) {
  // "<insufficient privilege>" and the like are placeholders, not statements.
  bool no_statement = m.shape.empty() || m.shape == "sql:" || m.statement.rfind("<", 0) == 0;
  return no_statement ? "wait:" + m.wait : m.shape;
}

}  // namespace

DeadlockCause CauseOf(const DeadlockSignature& signature, const std::vector<Finding>& findings) {
  DeadlockCause c;
  const Finding* primary = nullptr;
  for (const Finding& f : findings)
    if (!primary || f.severity < primary->severity) primary = &f;  // kError first
  if (primary) c.rule = primary->rule_id;
  std::set<std::pair<std::string, std::string>> shapes;  // key -> statement
  for (const SignatureMember& m : signature.members) shapes.insert({CauseKey(m), m.statement});
  std::string canonical = "cause " + c.rule;
  std::string last_key;
  for (const auto& [key, statement] : shapes) {
    if (key == last_key) continue;  // one statement per shape
    last_key = key;
    canonical += "\n" + key;
    c.statements.push_back(statement);
  }
  c.id = Fnv1a64Hex(canonical);
  return c;
}

void DeadlockGrouper::Add(const Event& event, const DeadlockSignature& signature) {
  auto [it, added] = index_.emplace(signature.id, groups_.size());
  if (added) {
    DeadlockCause cause = CauseOf(signature, event.findings);
    DeadlockGroup g;
    g.signature = signature.id;
    g.cause = cause.id;
    g.first_time = event.time;
    g.first_source = event.source;
    g.members = signature.members;
    groups_.push_back(std::move(g));
    if (cause_index_.emplace(cause.id, causes_.size()).second) causes_.push_back(std::move(cause));
  }
  if (added) last_seq_.push_back(0);
  last_seq_[it->second] = ++seq_;
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

std::vector<DeadlockCause> DeadlockGrouper::Causes(const std::vector<DeadlockGroup>& groups) const {
  std::vector<DeadlockCause> out = causes_;
  std::vector<uint64_t> last_seq(out.size(), 0);
  for (const DeadlockGroup& g : groups) {  // largest first: so are the signatures
    auto at = index_.find(g.signature);
    if (at == index_.end()) continue;
    size_t k = cause_index_.at(g.cause);
    DeadlockCause& c = out[k];
    c.count += g.count;
    c.signatures.push_back(g.signature);
    for (const std::string& r : g.rules) AddRule(&c.rules, r);
    if (last_seq_[at->second] >= last_seq[k]) {
      last_seq[k] = last_seq_[at->second];
      c.last_time = g.last_time;
      c.last_source = g.last_source;
    }
  }
  // The first deadlock of a cause is the first of its first group.
  for (const DeadlockGroup& g : groups_) {
    DeadlockCause& c = out[cause_index_.at(g.cause)];
    if (c.first_source.file.empty() && c.first_time.empty()) {
      c.first_time = g.first_time;
      c.first_source = g.first_source;
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const DeadlockCause& a, const DeadlockCause& b) {
    return a.count > b.count;
  });
  return out;
}

}  // namespace lockgraph
