// Every field of every real SQL Server report in samples/sqlserver/ (copies
// of ../shared/samples/sqlserver/, see its README): victims, processes,
// frames, attributes, cycles, edges with their basis, resources with their
// owner and waiter lists. The expected text (DescribeSqlServerEvent's, one
// line per field) is in tests/sqlserver/<sample>.expected; set
// LOCKGRAPH_UPDATE_GOLDEN=1 to rewrite it, then read the diff.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <string>

#include "sqlserver_describe.h"
#include "support.h"

namespace lockgraph {
namespace {

std::string SamplePath(const std::string& name) {
  return std::string(LOCKGRAPH_SAMPLES_DIR) + "/sqlserver/" + name;
}

// The one deadlock of a sample, compared field by field with its expected
// description; the input format and line counts checked.
Event Sample(const std::string& name, const std::string& format, uint64_t lines) {
  Report r = test::AnalyzeText(test::ReadFile(SamplePath(name)));
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == format);
  CHECK(r.inputs[0].lines.total == lines);
  CHECK(r.inputs[0].lines.parsed == lines);
  CHECK(r.diagnostics.empty());
  REQUIRE(r.events.size() == 1);
  REQUIRE(r.events[0].deadlock);
  std::string text = test::DescribeSqlServerEvent(r.events[0]);
  std::string expected_path = std::string(LOCKGRAPH_TEST_DIR) + "/sqlserver/" + name + ".expected";
  if (std::getenv("LOCKGRAPH_UPDATE_GOLDEN")) std::ofstream(expected_path, std::ios::binary) << text;
  INFO("expected in " << expected_path);
  CHECK(text == test::ReadFile(expected_path));
  return std::move(r.events[0]);
}

// "spid62 -S-> spid58; ..." in cycle order.
std::string SpidCycle(const Deadlock& d) {
  std::string s;
  auto spid = [&](const std::string& id) {
    for (const Participant& p : d.processes)
      if (p.id == id && p.spid) return "spid" + std::to_string(*p.spid);
    return id;
  };
  for (const WaitEdge& e : d.edges)
    s += (s.empty() ? "" : "; ") + spid(e.waiter) + " -" + e.mode + "/" + e.lock.text + "-> " + spid(e.blocker);
  return s;
}

}  // namespace

TEST_CASE("sqlserver sample: extended event, key lookup", "[sqlserver][samples]") {
  Event ev = Sample("sqlserver-xe-event-keylookup-msdocs.xml", "sqlserver-xml", 62);
  const Deadlock& d = *ev.deadlock;
  CHECK(ev.time == "2022-02-18T08:26:24.698Z");
  CHECK(ev.epoch_ms == 1645172784698);
  CHECK(d.victim == "process27b9b0b9848");
  CHECK(SpidCycle(d) ==
        "spid62 -S/KEY: 5:72057594214350848 (1a39e6095155)-> spid58; "
        "spid58 -X/KEY: 5:72057594214416384 (e5b3d7e750dd)-> spid62");
  CHECK(d.edges[0].lock.Field("indexname") == "cidx");
  CHECK(d.edges[1].lock.Field("indexname") == "idx1");
  CHECK(d.processes[0].frames[0].function == "AdventureWorks2022.dbo.p1");
  CHECK(d.edges[0].line == 42);  // the file line of each edge's resource element
  CHECK(d.edges[1].line == 50);
  CHECK(d.complete);
}

TEST_CASE("sqlserver sample: deadlock-list, two keylocks", "[sqlserver][samples]") {
  Event ev = Sample("sqlserver-deadlocklist-2proc-keylock-tally.xdl", "sqlserver-xml", 53);
  const Deadlock& d = *ev.deadlock;
  CHECK(d.message == "deadlock-list");
  CHECK(d.victims == std::vector<std::string>{"process181735b88"});
  CHECK(SpidCycle(d) ==
        "spid60 -X/KEY: 21:72057594049658880 (010008207756)-> spid56; "
        "spid56 -X/KEY: 21:72057594038976512 (010086470766)-> spid60");
  CHECK(ev.source.first_line == 2);  // the <deadlock> element; line 1 is <deadlock-list>
}

TEST_CASE("sqlserver sample: nine victims, one object lock", "[sqlserver][samples]") {
  Event ev = Sample("sqlserver-multivictim-objectlock-tempdb.xdl", "sqlserver-xml", 335);
  const Deadlock& d = *ev.deadlock;
  CHECK(d.victims.size() == 9);
  CHECK(d.processes.size() == 10);
  CHECK(d.resources.size() == 10);  // one lock, reported once per waiter
  CHECK(SpidCycle(d) == "spid55 -IX/OBJECT: 2:264388011:0-> spid59; spid59 -IX/OBJECT: 2:264388011:0-> spid55");
  // Each waiter against the S owners of its copy (27), and the owners
  // converting to IX in each copy against the S owners listed there (6 more).
  CHECK(d.other_edges.size() == 33);
  for (const WaitEdge& e : d.other_edges) {
    CHECK(e.request == "convert");
    CHECK(e.blocker_mode == "S");
    CHECK(e.basis == EdgeBasis::kHard);
  }
}

TEST_CASE("sqlserver sample: trace flags 1222 and 1204 give one deadlock", "[sqlserver][samples]") {
  Event a = Sample("sqlserver-1222-msdocs-ridlock-keylock.txt", "sqlserver-errorlog", 60);
  Event b = Sample("sqlserver-1204-msdocs-rid-key.txt", "sqlserver-errorlog", 34);
  std::string cycle =
      "spid55 -U/KEY: 6:72057594057457664 (350007a4d329)-> spid54; spid54 -U/RID: 6:1:20789:0-> spid55";
  CHECK(SpidCycle(*a.deadlock) == cycle);
  CHECK(SpidCycle(*b.deadlock) == cycle);
  CHECK(a.deadlock->processes[0].log_used == 380);
  CHECK(b.deadlock->processes[0].log_used == 380);  // 1204 "Cost:(0/380)"
  CHECK(a.deadlock->processes[1].attributes.size() == 18);
}

}  // namespace lockgraph
