// See deadlock_builder.h.
#include "parsers/sqlserver/deadlock_builder.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <set>
#include <tuple>

#include "graph/wait_for_graph.h"
#include "parsers/sqlserver/process_reader.h"
#include "parsers/sqlserver/resource_reader.h"

namespace lockgraph {
namespace {

uint64_t LineOf(const ReportOrigin& origin, const pugi::xml_node& node) {
  if (!origin.line_of) return origin.first_line;
  ptrdiff_t offset = node.offset_debug();
  return offset < 0 ? origin.first_line : origin.line_of(offset);
}

std::vector<std::string> ReadVictims(const pugi::xml_node& deadlock) {
  std::vector<std::string> victims;
  if (pugi::xml_node list = deadlock.child("victim-list")) {
    for (const pugi::xml_node& v : list.children("victimProcess"))
      if (*v.attribute("id").value()) victims.emplace_back(v.attribute("id").value());
    return victims;
  }
  // Legacy form; trace flag 1222 says 0 for an unresolved deadlock.
  std::string victim = deadlock.attribute("victim").value();
  if (!victim.empty() && victim != "0") victims.push_back(victim);
  return victims;
}

// Reads resources and their waits; each wait once per (waiter, blocker, lock).
void ReadResources(const pugi::xml_node& deadlock, const ReportOrigin& origin, Deadlock* d,
                   std::vector<WaitEdge>* edges) {
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  for (const pugi::xml_node& node : deadlock.child("resource-list").children()) {
    if (node.type() != pugi::node_element) continue;
    LockResource r = ReadSqlServerResource(node);
    for (const LockRequest& w : r.waiters) {
      auto p = std::find_if(d->processes.begin(), d->processes.end(),
                            [&](const Participant& q) { return q.id == w.process; });
      if (p != d->processes.end() && !p->wait_resource.empty()) {
        r.lock.text = p->wait_resource;
        break;
      }
    }
    std::vector<WaitEdge> waits;
    AddResourceWaits(r, LineOf(origin, node), &waits);
    for (WaitEdge& e : waits)
      if (seen.insert({e.waiter, e.blocker, e.lock.Key()}).second) edges->push_back(std::move(e));
    d->resources.push_back(std::move(r));
  }
}

// Problems of processes named in the lists but not in the process list.
void CheckNames(Deadlock* d, const std::vector<WaitEdge>& edges) {
  std::set<std::string> known, missing;
  for (const Participant& p : d->processes) known.insert(p.id);
  for (const WaitEdge& e : edges)
    for (const std::string* id : {&e.waiter, &e.blocker})
      if (!known.count(*id)) missing.insert(*id);
  for (const std::string& v : d->victims)
    if (!known.count(v)) missing.insert(v);
  for (const std::string& id : missing)
    d->problems.push_back("process " + id + " is named but not in the process list");
}

// The cycle through the first victim on one (or, with no victim on a
// cycle, through the first process on one), as edge indexes.
std::vector<size_t> FindCycle(const WaitForGraph& g, Deadlock* d) {
  for (const std::string& v : d->victims)
    if (auto vertex = g.FindProcess(v)) {
      std::vector<size_t> cycle = g.CycleThrough(*vertex);
      if (!cycle.empty()) return cycle;
    }
  if (!d->victims.empty())
    d->problems.push_back("the victim " + d->victims.front() + " is on no cycle of the reported waits");
  for (WaitForGraph::Vertex v = 0; v < g.process_count(); ++v) {
    std::vector<size_t> cycle = g.CycleThrough(v);
    if (!cycle.empty()) return cycle;
  }
  d->problems.push_back("the owner and waiter lists make no cycle");
  return {};
}

// Orders processes and edges: the cycle first (victim first), then the rest
// in report order.
void OrderByCycle(const std::vector<size_t>& cycle, std::vector<WaitEdge> edges, Deadlock* d) {
  std::vector<char> on_cycle(edges.size(), 0);
  for (size_t i : cycle) {
    on_cycle[i] = 1;
    d->edges.push_back(edges[i]);
  }
  for (size_t i = 0; i < edges.size(); ++i)
    if (!on_cycle[i]) d->other_edges.push_back(std::move(edges[i]));
  std::vector<Participant> ordered;
  std::vector<char> taken(d->processes.size(), 0);
  for (const WaitEdge& e : d->edges)
    for (size_t k = 0; k < d->processes.size(); ++k)
      if (!taken[k] && d->processes[k].id == e.waiter) {
        taken[k] = 1;
        ordered.push_back(std::move(d->processes[k]));
      }
  for (size_t k = 0; k < d->processes.size(); ++k)
    if (!taken[k]) ordered.push_back(std::move(d->processes[k]));
  d->processes = std::move(ordered);
}

bool IsParallel(const Deadlock& d) {
  for (const LockResource& r : d.resources)
    if (r.lock.type == "exchangeEvent" || r.lock.type == "SyncPoint") return true;
  for (size_t i = 0; i < d.processes.size(); ++i)
    for (size_t k = i + 1; k < d.processes.size(); ++k) {
      const Participant &a = d.processes[i], &b = d.processes[k];
      if (a.spid && a.spid == b.spid && a.ecid != b.ecid) return true;
    }
  return false;
}

}  // namespace

Event BuildSqlServerDeadlock(const pugi::xml_node& deadlock, const ReportOrigin& origin) {
  Event ev;
  ev.type = EventType::kDeadlock;
  ev.engine = "sqlserver";
  ev.time = origin.time;
  ev.epoch_ms = origin.epoch_ms;
  ev.source.file = origin.file;
  ev.source.first_line = origin.first_line;
  ev.source.last_line = origin.last_line;
  ev.truncated = origin.cut;
  Deadlock& d = ev.deadlock.emplace();
  d.message = origin.form;
  d.victims = ReadVictims(deadlock);
  if (!d.victims.empty()) d.victim = d.victims.front();
  size_t unnamed = 0;
  for (const pugi::xml_node& node : deadlock.child("process-list").children("process")) {
    d.processes.push_back(ReadSqlServerProcess(node));
    if (d.processes.back().id.empty()) {
      d.processes.back().id = "(process " + std::to_string(++unnamed) + ")";
      d.problems.push_back("a process has no id");
    }
  }
  std::vector<WaitEdge> edges;
  ReadResources(deadlock, origin, &d, &edges);
  CheckNames(&d, edges);
  WaitForGraph g;
  for (const Participant& p : d.processes) g.AddProcess(p.id);
  for (const WaitEdge& e : edges) g.AddWait(e.waiter, e.mode, e.lock, e.blocker, e.basis);
  std::vector<size_t> cycle = FindCycle(g, &d);
  OrderByCycle(cycle, std::move(edges), &d);
  d.parallel = IsParallel(d);
  for (const Participant& p : d.processes)
    if (p.id == d.victim) ev.session = p.session;
  if (!origin.malformed.empty()) d.problems.insert(d.problems.begin(), origin.malformed);
  if (origin.cut) d.problems.push_back("the report is cut (end of input)");
  d.complete = d.problems.empty();
  return ev;
}

std::optional<int64_t> UtcEpochMs(std::string_view iso) {
  int y, mo, da, h, mi, s, n = 0;
  std::string text(iso);
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &da, &h, &mi, &s, &n) != 6)
    return std::nullopt;
  int64_t ms = 0;
  size_t i = size_t(n);
  if (i < text.size() && text[i] == '.') {
    int digits = 0;
    for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
      if (digits < 3) ms = ms * 10 + (text[i] - '0'), ++digits;
    for (; digits < 3; ++digits) ms *= 10;
  }
  if (i + 1 != text.size() || text[i] != 'Z') return std::nullopt;
  std::tm tm{};
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = da;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = s;
  return int64_t(timegm(&tm)) * 1000 + ms;
}

}  // namespace lockgraph
