// Client output of real drivers (samples/postgresql/clients/, made by
// scripts/make-client-samples.sh) against the server's csvlog of the same
// run: each driver's output gives exactly the deadlocks the server logged
// for its sessions (application_name lg_<driver>), with the same victim and
// edges, never complete, source kind "client".
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "client_problems.h"
#include "support.h"

namespace lockgraph {
namespace {

using namespace lockgraph::test;  // the client problems

std::string Sample(const std::string& name) {
  return test::ReadFile(std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/clients/" + name);
}

std::vector<Event> Deadlocks(const Report& r) {
  std::vector<Event> out;
  for (const Event& ev : r.events)
    if (ev.type == EventType::kDeadlock) out.push_back(ev);
  return out;
}

// The server's deadlocks of one driver's sessions, in log order.
std::vector<Event> ServerDeadlocks(const std::string& application) {
  static const Report server = test::AnalyzeText(Sample("server.csv"));
  std::vector<Event> out;
  for (const Event& ev : Deadlocks(server))
    if (ev.session.application == application) out.push_back(ev);
  return out;
}

struct Driver {
  const char* file;
  const char* application;
  bool detail;        // the output holds the DETAIL
  bool context;       // ... and the CONTEXT
  std::vector<std::pair<uint64_t, uint64_t>> spans;  // first and last line of each report
};

void CheckDriver(const Driver& drv) {
  INFO(drv.file);
  Report r = test::AnalyzeText(Sample(drv.file));
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "client");
  CHECK(r.inputs[0].lines.unparsed == 0);
  CHECK(r.diagnostics.empty());
  // No advice on server settings (PG011) from client output.
  CHECK(r.findings.empty());
  const std::vector<Event> client = Deadlocks(r);
  const std::vector<Event> server = ServerDeadlocks(drv.application);
  REQUIRE(server.size() == 2);  // the 2- and the 3-process deadlock
  REQUIRE(client.size() == server.size());
  CHECK(r.summary.deadlocks == 2);
  CHECK(r.summary.deadlocks_incomplete == 2);
  CHECK(server[0].deadlock->edges.size() + server[1].deadlock->edges.size() == 5);  // 2 and 3
  for (size_t i = 0; i < client.size(); ++i) {
    INFO("deadlock " << i + 1);
    const Event& ce = client[i];
    const Deadlock& c = *ce.deadlock;
    const Deadlock& s = *server[i].deadlock;
    REQUIRE(s.complete);
    CHECK(ce.source.kind == "client");
    CHECK(server[i].source.kind.empty());
    CHECK(ce.source.first_line == drv.spans[i].first);
    CHECK(ce.source.last_line == drv.spans[i].second);
    CHECK(ce.time.empty());
    CHECK_FALSE(ce.pid);
    CHECK(c.message == "deadlock detected");
    CHECK(c.sqlstate == "40P01");
    CHECK_FALSE(c.complete);
    CHECK(c.statement.empty());
    // No statements: no rule may claim they are the same (PG001).
    CHECK(ce.findings.empty());
    if (!drv.detail) {
      CHECK(c.victim.empty());
      CHECK(c.edges.empty());
      CHECK(c.processes.empty());
      CHECK(c.hint.empty());
      CHECK(c.context.empty());
      CHECK(c.problems == std::vector<std::string>{kNoStatements, kNoDetail});
      continue;
    }
    CHECK(c.problems == std::vector<std::string>{kNoStatements, kVictimInferred});
    CHECK(c.victim == s.victim);
    CHECK(test::CycleString(c) == test::CycleString(s));
    REQUIRE(c.edges.size() == s.edges.size());
    for (size_t k = 0; k < c.edges.size(); ++k) {
      CHECK(c.edges[k].waiter == s.edges[k].waiter);
      CHECK(c.edges[k].blocker == s.edges[k].blocker);
      CHECK(c.edges[k].mode == s.edges[k].mode);
      CHECK(c.edges[k].lock.Key() == s.edges[k].lock.Key());
      CHECK(c.edges[k].lock.text == s.edges[k].lock.text);
      CHECK(c.edges[k].basis == EdgeBasis::kReported);
    }
    REQUIRE(c.processes.size() == s.processes.size());
    for (size_t k = 0; k < c.processes.size(); ++k) {
      CHECK(c.processes[k].id == s.processes[k].id);
      CHECK(c.processes[k].pid == s.processes[k].pid);
      CHECK(c.processes[k].query.empty());
    }
    CHECK(c.hint == s.hint);
    REQUIRE(c.context.size() == (drv.context ? 1 : 0));
    if (drv.context) {
      REQUIRE(s.context.size() == 1);
      CHECK(c.context[0].text == s.context[0].text);
      CHECK(c.context[0].kind == ContextFrame::Kind::kRowWait);
      CHECK(c.context[0].relation == "items");
      CHECK(c.context[0].tuple == s.context[0].tuple);
    }
  }
}

TEST_CASE("client samples: the server's deadlocks of each driver's run", "[client]") {
  const std::vector<Driver> drivers = {
      {"psycopg2.txt", "lg_psycopg2", true, true, {{31, 35}, {60, 65}}},
      {"psycopg3.txt", "lg_psycopg3", true, true, {{8, 12}, {20, 25}}},
      {"asyncpg.txt", "lg_asyncpg", true, false, {{28, 31}, {59, 63}}},
      // Each traceback is chained: psycopg2's report, then Django's repeat of it.
      {"django.txt", "lg_django", true, true, {{5, 9}, {44, 49}}},
      // minitest runs test_three_way first (its order: by name, seed 1).
      {"rails.txt", "lg_rails", true, true, {{11, 16}, {39, 43}}},
      // node prints the stack between the error line and the `detail` property.
      {"node-pg.txt", "lg_node_pg", true, true, {{1, 14}, {24, 38}}},
      {"jdbc.txt", "lg_jdbc", true, true, {{1, 5}, {18, 23}}},
      {"pgx.txt", "lg_pgx", false, false, {{1, 1}, {2, 2}}},
      {"libpq-go.txt", "lg_libpq_go", false, false, {{2, 2}, {5, 5}}},
  };
  for (const Driver& d : drivers) CheckDriver(d);
}

TEST_CASE("client samples: lines are deadlock evidence or skipped application output", "[client]") {
  Report r = test::AnalyzeText(Sample("psycopg2.txt"));
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].lines.total == 71);
  CHECK(r.inputs[0].lines.parsed == 11);  // two reports of 5 and 6 lines
  CHECK(r.inputs[0].lines.unparsed == 0);
  CHECK(r.unparsed.empty());
}

TEST_CASE("client samples: a forced format reads them the same", "[client]") {
  Report sniffed = test::AnalyzeText(Sample("jdbc.txt"));
  Report forced = test::AnalyzeText(Sample("jdbc.txt"), "client");
  REQUIRE(sniffed.events.size() == 2);
  REQUIRE(forced.events.size() == 2);
  for (size_t i = 0; i < 2; ++i)
    CHECK(test::CycleString(*forced.events[i].deadlock) ==
          test::CycleString(*sniffed.events[i].deadlock));
}

}  // namespace
}  // namespace lockgraph
