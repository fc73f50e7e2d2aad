// See deadlock_text.h.
#include "emit/deadlock_text.h"

#include <algorithm>

#include "emit/text_safety.h"

namespace lockgraph {
namespace {

// One-line fields (names, ids, labels): a newline in them is shown as \n,
// so that no field can start a line of its own that looks like output.
std::string Clean(std::string_view s) { return OneLineText(s); }


std::string Join(const std::vector<std::string>& parts, const char* sep) {
  std::string s;
  for (const std::string& p : parts)
    if (!p.empty()) s += (s.empty() ? "" : sep) + p;
  return s;
}

std::string EdgeLine(const WaitEdge& e) {
  return Clean(e.waiter) + " waits for " + Clean(e.mode) + " on " + Clean(e.lock.Label()) +
         ", blocked by " + Clean(e.blocker) + EdgeSuffix(e) + " [" + EdgeBasisName(e.basis) + "]";
}

}  // namespace

bool IsVictim(const Deadlock& d, const std::string& id) {
  return id == d.victim || std::find(d.victims.begin(), d.victims.end(), id) != d.victims.end();
}

std::string SpidName(const Participant& p) {
  std::string s = p.spid ? "spid " + std::to_string(*p.spid) + " " : "";
  if (p.ecid && *p.ecid) s = "spid " + std::to_string(*p.spid) + " ecid " + std::to_string(*p.ecid) + " ";
  return s + p.id;
}

std::string VictimsText(const Deadlock& d) {
  if (d.victims.size() <= 1) return d.victim.empty() ? "none (unresolved)" : Clean(d.victim);
  std::string s = Clean(d.victims[0]) + ", " + Clean(d.victims[1]);
  if (d.victims.size() == 3) s += ", " + Clean(d.victims[2]);
  if (d.victims.size() > 3) s += " and " + std::to_string(d.victims.size() - 2) + " more";
  return s + " (" + std::to_string(d.victims.size()) + " victims)";
}

std::string EdgeSuffix(const WaitEdge& e) {
  std::string s;
  if (!e.blocker_mode.empty()) s += " holding " + Clean(e.blocker_mode);
  if (e.request == "convert") s += (s.empty() ? "" : ",") + std::string(" waiter converting");
  return s;
}

void WriteProcessDetail(const Participant& p, const std::string& indent, std::ostream& out) {
  bool detail = p.spid || p.ecid || !p.isolation_level.empty() || !p.wait_mode.empty() ||
                !p.wait_resource.empty() || p.wait_ms || !p.transaction_name.empty() ||
                p.log_used || !p.frames.empty() || !p.attributes.empty();
  if (!detail) return;  // PostgreSQL: the query line says it all
  std::vector<std::string> head;
  if (p.spid) head.push_back("spid " + std::to_string(*p.spid) + (p.ecid ? " ecid " + std::to_string(*p.ecid) : ""));
  head.push_back(Clean(p.isolation_level));
  if (!p.transaction_name.empty()) head.push_back("transaction " + Clean(p.transaction_name));
  if (p.log_used) head.push_back("log used " + std::to_string(*p.log_used));
  if (std::string line = Join(head, ", "); !line.empty()) out << indent << line << '\n';
  if (!p.wait_mode.empty() || !p.wait_resource.empty() || p.wait_ms) {
    out << indent << (p.wait_ms ? "waited " + std::to_string(*p.wait_ms) + " ms for " : "waits for ")
        << (p.wait_mode.empty() ? "?" : Clean(p.wait_mode))
        << (p.wait_resource.empty() ? "" : " on " + Clean(p.wait_resource)) << '\n';
  }
  std::vector<std::string> who;
  if (!p.session.user.empty()) who.push_back(Clean(p.session.user));
  if (!p.session.database.empty()) who.push_back("database " + Clean(p.session.database));
  if (!p.session.host.empty()) who.push_back("host " + Clean(p.session.host));
  if (!p.session.application.empty()) who.push_back("app " + Clean(p.session.application));
  if (!who.empty()) out << indent << Join(who, ", ") << '\n';
  for (const ContextFrame& f : p.frames) {
    std::string head_text = indent + "at " + Clean(f.function.empty() ? "?" : f.function) +
                            (f.line ? " line " + std::to_string(*f.line) : "") + ": ";
    out << head_text << IndentedText(f.statement, std::string(head_text.size(), ' ')) << '\n';
  }
}

std::string SourceKindNote(const SourceSpan& source) {
  if (source.kind == "client") return "  (client output: statements not logged)";
  return source.kind.empty() ? "" : "  (" + Clean(source.kind) + ")";
}

void WriteDeadlockExtras(const Deadlock& d, std::ostream& out) {
  if (d.parallel) out << "  intra-query parallelism: workers of one query wait for each other\n";
  if (d.other_edges.empty()) return;
  out << "  other waits:\n";
  for (const WaitEdge& e : d.other_edges) out << "    " << EdgeLine(e) << '\n';
}

}  // namespace lockgraph
