// Locks with several owners and waiters (issue 16): in a conversion
// deadlock every process holds S on one key and waits to convert it to X, so
// each waits for every other; the printed cycle is the shortest one through
// the victim, starting at the victim, and the other waits stay in
// other_edges. Hand-made variants of the SERIALIZABLE read-then-update.
#include <catch2/catch.hpp>

#include <string>

#include "graph/wait_for_graph.h"
#include "sqlserver_describe.h"
#include "support.h"

namespace lockgraph {
namespace {

std::string Processes(const std::vector<std::string>& ids) {
  std::string s;
  int spid = 50;
  for (const std::string& id : ids)
    s += "<process id=\"" + id + "\" spid=\"" + std::to_string(++spid) +
         "\" ecid=\"0\" waitresource=\"KEY: 5:72057594045333504 (8194443284a0)\" lockMode=\"X\""
         " isolationlevel=\"serializable (4)\"><inputbuf>SELECT qty FROM dbo.stock WHERE sku = 7;"
         " UPDATE dbo.stock SET qty = qty - 1 WHERE sku = 7;</inputbuf></process>\n";
  return s;
}

std::string ReportXml(const std::string& victims, const std::vector<std::string>& ids,
                   const std::string& resources) {
  std::string s = "<deadlock>\n<victim-list>";
  for (char c : victims) s += std::string("<victimProcess id=\"p") + c + "\"/>";
  return s + "</victim-list>\n<process-list>\n" + Processes(ids) + "</process-list>\n<resource-list>\n" +
         resources + "</resource-list>\n</deadlock>\n";
}

std::string Key(const std::string& owners, const std::string& waiters) {
  return "<keylock hobtid=\"72057594045333504\" dbid=\"5\" objectname=\"shop.dbo.stock\" "
         "indexname=\"PK_stock\" id=\"lock1\" mode=\"S\"><owner-list>" + owners +
         "</owner-list><waiter-list>" + waiters + "</waiter-list></keylock>\n";
}

std::string Owner(const char* id, const char* mode, bool convert = false) {
  return std::string("<owner id=\"") + id + "\" mode=\"" + mode + "\"" +
         (convert ? " requestType=\"convert\"" : "") + "/>";
}

std::string Waiter(const char* id) {
  return std::string("<waiter id=\"") + id + "\" mode=\"X\" requestType=\"convert\"/>";
}

Deadlock Read(const std::string& xml) {
  Report r = test::AnalyzeText(xml);
  REQUIRE(r.events.size() == 1);
  return *r.events[0].deadlock;
}

std::string Edges(const Deadlock& d) {
  std::string s;
  for (const WaitEdge& e : d.edges) s += "cycle " + test::EdgeString(e) + "\n";
  for (const WaitEdge& e : d.other_edges) s += "other " + test::EdgeString(e) + "\n";
  return s;
}

}  // namespace

TEST_CASE("sqlserver conversion: three holders of S, one resource, three converting waiters",
          "[sqlserver][conversion]") {
  std::string res = Key(Owner("p1", "S") + Owner("p2", "S") + Owner("p3", "S"),
                        Waiter("p1") + Waiter("p2") + Waiter("p3"));
  Deadlock d = Read(ReportXml("3", {"p1", "p2", "p3"}, res));
  CHECK(d.complete);
  CHECK(d.problems.empty());
  CHECK(d.victim == "p3");
  CHECK(Edges(d) ==
        "cycle p3 -X(convert)/keylock:lock1-> p1 holding S [hard]\n"
        "cycle p1 -X(convert)/keylock:lock1-> p3 holding S [hard]\n"
        "other p1 -X(convert)/keylock:lock1-> p2 holding S [hard]\n"
        "other p2 -X(convert)/keylock:lock1-> p1 holding S [hard]\n"
        "other p2 -X(convert)/keylock:lock1-> p3 holding S [hard]\n"
        "other p3 -X(convert)/keylock:lock1-> p2 holding S [hard]\n");
  CHECK(CycleMatchesGraph(d));
}

TEST_CASE("sqlserver conversion: the resource repeated once per waiter, victim last in the report",
          "[sqlserver][conversion]") {
  // The form of system_health reports (samples/sqlserver/...multivictim...):
  // the same lock once per waiter, the other converting owners in the owner list.
  std::string owners_all = Owner("p1", "S") + Owner("p2", "S") + Owner("p3", "S") +
                           Owner("p1", "X", true) + Owner("p2", "X", true) + Owner("p3", "X", true);
  std::string res = Key(owners_all, Waiter("p1")) + Key(owners_all, Waiter("p2")) +
                    Key(owners_all, Waiter("p3"));
  Deadlock d = Read(ReportXml("3", {"p1", "p2", "p3"}, res));
  CHECK(d.complete);
  CHECK(Edges(d) ==
        "cycle p3 -X(convert)/keylock:lock1-> p1 holding S [hard]\n"
        "cycle p1 -X(convert)/keylock:lock1-> p3 holding S [hard]\n"
        "other p1 -X(convert)/keylock:lock1-> p2 holding S [hard]\n"
        "other p2 -X(convert)/keylock:lock1-> p1 holding S [hard]\n"
        "other p2 -X(convert)/keylock:lock1-> p3 holding S [hard]\n"
        "other p3 -X(convert)/keylock:lock1-> p2 holding S [hard]\n");
}

TEST_CASE("sqlserver conversion: two victims, each printed cycle goes through the first",
          "[sqlserver][conversion]") {
  std::string res = Key(Owner("p1", "S") + Owner("p2", "S") + Owner("p3", "S") + Owner("p4", "S"),
                        Waiter("p1") + Waiter("p2") + Waiter("p3") + Waiter("p4"));
  Deadlock d = Read(ReportXml("42", {"p1", "p2", "p3", "p4"}, res));
  CHECK(d.complete);
  CHECK(d.victims == std::vector<std::string>{"p4", "p2"});
  REQUIRE(d.edges.size() == 2);
  CHECK(test::EdgeString(d.edges[0]) == "p4 -X(convert)/keylock:lock1-> p1 holding S [hard]");
  CHECK(test::EdgeString(d.edges[1]) == "p1 -X(convert)/keylock:lock1-> p4 holding S [hard]");
  CHECK(d.other_edges.size() == 10);
}

TEST_CASE("sqlserver conversion: a converting owner listed in no waiter list still waits",
          "[sqlserver][conversion]") {
  // p1 converts (owner list, requestType convert) and is the victim; only p2
  // is in the waiter list. p1 waits for p2's S, p2 for p1's S.
  std::string res = Key(Owner("p1", "S") + Owner("p1", "X", true) + Owner("p2", "S"), Waiter("p2"));
  Deadlock d = Read(ReportXml("1", {"p1", "p2"}, res));
  CHECK(d.complete);
  CHECK(d.problems.empty());
  CHECK(Edges(d) ==
        "cycle p1 -X(convert)/keylock:lock1-> p2 holding S [hard]\n"
        "cycle p2 -X(convert)/keylock:lock1-> p1 holding S [hard]\n");
}

TEST_CASE("sqlserver samples: every printed cycle is closed, through its first victim",
          "[sqlserver][conversion][samples]") {
  // Every lock of every public report, the nine-victim one included: no
  // "victim on no cycle" where the report is a plain deadlock.
  for (const char* name : {"sqlserver-1204-msdocs-rid-key.txt", "sqlserver-1222-msdocs-ridlock-keylock.txt",
                           "sqlserver-deadlocklist-2proc-keylock-tally.xdl",
                           "sqlserver-multivictim-objectlock-tempdb.xdl",
                           "sqlserver-xe-event-keylookup-msdocs.xml"}) {
    INFO(name);
    Report r = test::AnalyzeText(test::ReadFile(std::string(LOCKGRAPH_SAMPLES_DIR) + "/sqlserver/" + name));
    REQUIRE(r.events.size() == 1);
    const Deadlock& d = *r.events[0].deadlock;
    CHECK(d.complete);
    CHECK(d.problems.empty());
    REQUIRE_FALSE(d.edges.empty());
    CHECK(d.edges.front().waiter == d.victim);
    CHECK(d.edges.back().blocker == d.victim);
    CHECK(CycleMatchesGraph(d));
    // Which victims the reported waits put on a cycle: the first always.
    // The nine-victim report names four victims that no owner list shows
    // holding anything (nobody waits for them): on no cycle of its waits.
    WaitForGraph all;
    for (const WaitEdge& e : d.edges) all.AddWait(e.waiter, e.mode, e.lock, e.blocker, e.basis);
    for (const WaitEdge& e : d.other_edges) all.AddWait(e.waiter, e.mode, e.lock, e.blocker, e.basis);
    std::string on_cycle, off_cycle;
    for (const std::string& v : d.victims) {
      auto vertex = all.FindProcess(v);
      REQUIRE(vertex);
      (all.CycleThrough(*vertex).empty() ? off_cycle : on_cycle) += v + " ";
    }
    if (std::string(name) == "sqlserver-multivictim-objectlock-tempdb.xdl") {
      CHECK(on_cycle == "process3749e50c8 process3749e5c38 process37797c928 process3749e4558 process3747e70c8 ");
      CHECK(off_cycle == "process3749e4928 process378639c38 process375a72558 process3786390c8 ");
    } else {
      CHECK(on_cycle == (d.victims.empty() ? std::string() : d.victim + " "));
      CHECK(off_cycle.empty());
    }
  }
}

}  // namespace lockgraph
