// See client_event.h. The DETAIL is read by the server-log parser's
// ParseDeadlockDetail (parsers/postgresql/messages.h), told that no query
// lines follow the edges.
#include "parsers/client/client_event.h"

#include "graph/wait_for_graph.h"
#include "parsers/postgresql/messages.h"

namespace lockgraph::client {
namespace {

constexpr const char* kNoStatements =
    "client output: the statements are not in it (\"See server log for query details\")";
constexpr const char* kVictimInferred =
    "victim inferred: the first waiter of the DETAIL, the backend that detected the deadlock "
    "(its error is the one the client printed)";
constexpr const char* kNoDetail =
    "no DETAIL in the client output: the driver or the application printed only the message, "
    "so the cycle is unknown";
constexpr const char* kNoErrorLine =
    "only the DETAIL's edges were found, not the driver's \"deadlock detected\" line";

void ReadEdges(const ClientReport& report, Deadlock* d) {
  std::string detail;
  for (const std::string& e : report.edges) detail += (detail.empty() ? "" : "\n") + e;
  DeadlockDetailOptions options;
  options.queries_follow = false;
  DeadlockDetail parsed = ParseDeadlockDetail(detail, options);
  d->edges = std::move(parsed.edges);
  d->processes = std::move(parsed.processes);
  d->problems.insert(d->problems.end(), parsed.problems.begin(), parsed.problems.end());
  if (d->edges.empty()) return;
  d->victim = d->edges.front().waiter;
  d->problems.push_back(kVictimInferred);
  std::vector<std::string> cycle_problems;
  bool closed = OrderCycleFromVictim(d->victim, &d->edges, &d->processes, &cycle_problems);
  d->problems.insert(d->problems.end(), cycle_problems.begin(), cycle_problems.end());
  if (closed && !CycleMatchesGraph(*d))
    d->problems.push_back("the wait-for graph of these edges has another cycle through the victim");
}

}  // namespace

Event MakeClientDeadlock(const ClientReport& report, const std::string& file) {
  Event ev;
  ev.type = EventType::kDeadlock;
  ev.source.file = file;
  ev.source.first_line = report.first_line;
  ev.source.last_line = report.last_line;
  ev.source.kind = "client";
  Deadlock d;
  d.message = "deadlock detected";
  d.sqlstate = "40P01";
  d.hint = report.hint;
  d.context = ParseContext(report.context);
  d.complete = false;  // the statements are never in client output
  d.problems.push_back(kNoStatements);
  if (!report.error_line) d.problems.push_back(kNoErrorLine);
  if (report.edges.empty())
    d.problems.push_back(kNoDetail);
  else
    ReadEdges(report, &d);
  ev.deadlock = std::move(d);
  return ev;
}

}  // namespace lockgraph::client
