// See my_text.h.
#include "rules/mysql/my_text.h"

#include "rules/rule_text.h"

namespace lockgraph::my_rules {

bool IsMysqlCycle(const Event& event) {
  return event.engine == "mysql" && event.deadlock && !event.deadlock->edges.empty();
}

std::string_view BaseMode(std::string_view mode) { return mode.substr(0, mode.find(',')); }

bool HasFlag(std::string_view mode, std::string_view flag) {
  size_t pos = 0;
  while ((pos = mode.find(',', pos)) != std::string_view::npos) {
    ++pos;
    if (mode.substr(pos, mode.find(',', pos) - pos) == flag) return true;
  }
  return false;
}

bool LocksGap(std::string_view mode) {
  return !HasFlag(mode, "REC_NOT_GAP") && !HasFlag(mode, "INSERT_INTENTION") &&
         (BaseMode(mode) == "X" || BaseMode(mode) == "S");
}

const Participant* Find(const Deadlock& d, const std::string& id) {
  for (const Participant& p : d.processes)
    if (p.id == id) return &p;
  return nullptr;
}

std::string Verb(const Participant& p) {
  std::string v;
  size_t i = p.query.find_first_not_of(" \t\n(");
  for (; i < p.query.size() && std::isalpha(static_cast<unsigned char>(p.query[i])); ++i)
    v += char(std::toupper(static_cast<unsigned char>(p.query[i])));
  return v;
}

std::string Who(const Deadlock& d, const std::string& id) {
  return "connection " + id + (id == d.victim ? " (victim)" : "");
}

std::vector<std::string> Evidence(const Event& event) {
  const Deadlock& d = *event.deadlock;
  std::vector<std::string> out = pg_rules::CycleEvidence(event);
  for (const Participant& p : d.processes) {
    std::string line = Who(d, p.id);
    for (const LockField& f : p.attributes)
      if (f.name == "trx_id") line += ", trx " + f.value;
      else if (f.name == "state") line += ", " + f.value;
    out.push_back(line + ": " + pg_rules::OneLine(p.query, 160));
  }
  return out;
}

}  // namespace lockgraph::my_rules
