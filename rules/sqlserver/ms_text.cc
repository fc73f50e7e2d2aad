// See ms_text.h.
#include "rules/sqlserver/ms_text.h"

#include "rules/rule_text.h"

namespace lockgraph::ms_rules {

std::string ShortName(std::string_view objectname) {
  size_t dot = objectname.rfind('.');
  return std::string(dot == std::string_view::npos ? objectname : objectname.substr(dot + 1));
}

std::string DatabaseOf(std::string_view objectname) {
  size_t first = objectname.find('.');
  if (first == std::string_view::npos || objectname.find('.', first + 1) == std::string_view::npos)
    return "";
  return std::string(objectname.substr(0, first));
}

std::string Who(const Participant& p) {
  return p.spid ? p.id + " (spid " + std::to_string(*p.spid) + ")" : p.id;
}

std::string WhereRuns(const ProcessFacts& p) {
  if (!p.frame) return "input buffer";
  std::string s = p.frame->function.empty() ? "?" : p.frame->function;
  return p.frame->line ? s + " line " + std::to_string(*p.frame->line) : s;
}

std::string EdgeText(const WaitEdge& e) {
  std::string s = e.waiter + " waits for " + (e.mode.empty() ? "" : e.mode + " on ") +
                  e.lock.Label() + ", blocked by " + e.blocker;
  if (!e.blocker_mode.empty()) s += " holding " + e.blocker_mode;
  if (e.request == "convert") s += ", converting";
  return s;
}

std::vector<std::string> CycleEvidence(const Event& event) {
  const Deadlock& d = *event.deadlock;
  std::vector<std::string> out{pg_rules::Lines(event) + ": deadlock, victim " +
                               (d.victim.empty() ? "none" : d.victim)};
  for (size_t i = 0; i < d.edges.size(); ++i)
    out.push_back("edge " + std::to_string(i + 1) + ": " + EdgeText(d.edges[i]));
  return out;
}

std::string ProcessEvidence(const ProcessFacts& p, const Deadlock& d) {
  const Participant& who = *p.participant;
  bool victim = false;
  for (const std::string& v : d.victims) victim = victim || v == who.id;
  victim = victim || who.id == d.victim;
  return "process " + Who(who) + (victim ? " (victim)" : "") + " at " + WhereRuns(p) + ": " +
         pg_rules::OneLine(p.query, 160);
}

std::vector<std::string> CycleAndWaitersEvidence(const Event& event,
                                                 const std::vector<ProcessFacts>& processes) {
  std::vector<std::string> out = CycleEvidence(event);
  for (const ProcessFacts& p : processes)
    if (p.wait) out.push_back(ProcessEvidence(p, *event.deadlock));
  return out;
}

bool SharedMode(std::string_view mode) {
  return mode == "S" || mode == "IS" || mode == "RangeS-S" || mode == "Sch-S";
}

bool WriteMode(std::string_view mode) {
  return !mode.empty() && !SharedMode(mode) && mode != "NL";
}

std::string IsolationName(const Participant& p) {
  std::string s = p.isolation_level.substr(0, p.isolation_level.find(" ("));
  return s;
}

}  // namespace lockgraph::ms_rules
