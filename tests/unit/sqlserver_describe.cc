// See sqlserver_describe.h.
#include "sqlserver_describe.h"

#include <sstream>

namespace lockgraph::test {
namespace {

std::string Opt(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "-"; }

std::string Requests(const std::vector<LockRequest>& list) {
  std::string s;
  for (const LockRequest& r : list)
    s += (s.empty() ? "" : ", ") + r.process + " " + r.mode + (r.request.empty() ? "" : "/" + r.request);
  return s;
}

void DescribeProcess(const Participant& p, std::ostream& out) {
  out << "process " << p.id << " spid=" << Opt(p.spid) << " ecid=" << Opt(p.ecid)
      << " isolation=" << p.isolation_level << " wait_mode=" << p.wait_mode
      << " wait_resource=" << p.wait_resource << " wait_ms=" << Opt(p.wait_ms)
      << " transaction=" << p.transaction_name << " log_used=" << Opt(p.log_used) << "\n";
  out << "  session user=" << p.session.user << " host=" << p.session.host
      << " app=" << p.session.application << " db=" << p.session.database << "\n";
  out << "  query=" << p.query << "\n";
  for (const ContextFrame& f : p.frames)
    out << "  frame " << f.function << " line " << (f.line ? std::to_string(*f.line) : "-") << ": "
        << f.statement << "\n";
  out << "  attributes";
  for (const LockField& a : p.attributes) out << " " << a.name << "=" << a.value;
  out << "\n";
}

}  // namespace

std::string LockString(const LockTarget& lock) {
  std::string s = lock.type + "{";
  for (size_t i = 0; i < lock.fields.size(); ++i)
    s += (i ? "," : "") + lock.fields[i].name + "=" + lock.fields[i].value + (lock.fields[i].numeric ? "#" : "");
  return s + "} '" + lock.text + "'";
}

std::string EdgeString(const WaitEdge& e) {
  return e.waiter + " -" + e.mode + (e.request.empty() ? "" : "(" + e.request + ")") + "/" +
         e.lock.type + ":" + std::string(e.lock.Field("id")) + "-> " + e.blocker + " holding " +
         e.blocker_mode + " [" + EdgeBasisName(e.basis) + "]";
}

std::string DescribeSqlServerEvent(const Event& ev) {
  std::ostringstream out;
  const Deadlock& d = *ev.deadlock;
  out << "engine=" << ev.engine << " time=" << ev.time << " epoch_ms=" << Opt(ev.epoch_ms)
      << " lines=" << ev.source.first_line << "-" << ev.source.last_line
      << " truncated=" << ev.truncated << " message=" << d.message << " complete=" << d.complete
      << " parallel=" << d.parallel << "\n";
  out << "victim=" << d.victim << " victims=";
  for (const std::string& v : d.victims) out << v << ";";
  out << "\n";
  for (const std::string& p : d.problems) out << "problem: " << p << "\n";
  for (const Participant& p : d.processes) DescribeProcess(p, out);
  for (const WaitEdge& e : d.edges) out << "edge " << EdgeString(e) << "\n";
  for (const WaitEdge& e : d.other_edges) out << "other " << EdgeString(e) << "\n";
  for (const LockResource& r : d.resources)
    out << "resource " << LockString(r.lock) << " mode=" << r.mode << " owners: " << Requests(r.owners)
        << " | waiters: " << Requests(r.waiters) << "\n";
  return out.str();
}

}  // namespace lockgraph::test
