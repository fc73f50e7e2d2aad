// Waits from owner and waiter lists: the lock compatibility matrix, the
// basis of each edge (hard, soft, derived, reported), intra-query
// parallelism, resource kinds without a real sample, and what makes a
// report incomplete.
#include <catch2/catch.hpp>

#include <string>

#include "parsers/sqlserver/lock_modes.h"
#include "parsers/sqlserver/wait_resource.h"
#include "sqlserver_describe.h"
#include "support.h"

namespace lockgraph {
namespace {

// A <deadlock> with these victims, processes (id:spid:ecid) and resources.
std::string Graph(const std::string& victims, const std::vector<std::string>& processes,
                  const std::string& resources) {
  std::string s = "<deadlock>\n<victim-list>";
  for (size_t b = 0, e; b < victims.size(); b = e + 1) {
    e = victims.find(',', b);
    if (e == std::string::npos) e = victims.size();
    if (e > b) s += "<victimProcess id=\"" + victims.substr(b, e - b) + "\"/>";
  }
  s += "</victim-list>\n<process-list>\n";
  for (const std::string& p : processes) {
    size_t c1 = p.find(':'), c2 = p.find(':', c1 + 1);
    s += "<process id=\"" + p.substr(0, c1) + "\" spid=\"" + p.substr(c1 + 1, c2 - c1 - 1) +
         "\" ecid=\"" + p.substr(c2 + 1) + "\"><inputbuf>q</inputbuf></process>\n";
  }
  return s + "</process-list>\n<resource-list>\n" + resources + "</resource-list>\n</deadlock>\n";
}

std::string Lists(const std::string& owners, const std::string& waiters) {
  return "<owner-list>" + owners + "</owner-list><waiter-list>" + waiters + "</waiter-list>";
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

TEST_CASE("sqlserver lock modes: the documented matrices", "[sqlserver]") {
  // Reference A7.1: requested (row) against granted (column), Y = compatible.
  const char* modes[] = {"IS", "S", "U", "IX", "SIX", "X"};
  const char* rows[] = {"YYYYYN", "YYYNNN", "YYNNNN", "YNNYNN", "YNNNNN", "NNNNNN"};
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) {
      INFO(modes[r] << " against " << modes[c]);
      CHECK((SqlServerModeConflict(modes[r], modes[c]) == ModeConflict::kCompatible) == (rows[r][c] == 'Y'));
    }
  const char* kr[] = {"S", "U", "X", "RangeS-S", "RangeS-U", "RangeI-N", "RangeX-X"};
  const char* krows[] = {"YYNYYYN", "YNNYNYN", "NNNNNYN", "YYNYYNN", "YNNYNNN", "YYYNNYN", "NNNNNNN"};
  for (int r = 0; r < 7; ++r)
    for (int c = 0; c < 7; ++c) {
      INFO(kr[r] << " against " << kr[c]);
      CHECK((SqlServerModeConflict(kr[r], kr[c]) == ModeConflict::kCompatible) == (krows[r][c] == 'Y'));
    }
  CHECK(SqlServerModeConflict("sch-s", "SCH-M") == ModeConflict::kConflict);
  CHECK(SqlServerModeConflict("IS", "RangeS-S") == ModeConflict::kIllegal);
  CHECK(SqlServerModeConflict("Q", "S") == ModeConflict::kUnknown);
  CHECK(SqlServerModeConflict("", "S") == ModeConflict::kUnknown);
}

TEST_CASE("sqlserver wait resources", "[sqlserver]") {
  auto parts = [](const std::string& text) {
    WaitResource w;
    if (!ParseWaitResource(text, &w)) return std::string("none");
    std::string s = w.element + ":";
    for (auto& [k, v] : w.parts) s += " " + k + "=" + v;
    return s;
  };
  CHECK(parts("KEY: 5:72057594214350848 (1a39e6095155)") == "keylock: dbid=5 hobtid=72057594214350848 hash=1a39e6095155");
  CHECK(parts("RID: 6:1:20789:0") == "ridlock: dbid=6 fileid=1 pageid=20789 slot=0");
  CHECK(parts("OBJECT: 2:264388011:0 ") == "objectlock: dbid=2 objid=264388011 lockPartition=0");
  CHECK(parts("TAB: 6:2009058193") == "objectlock: dbid=6 objid=2009058193");
  CHECK(parts("PAG: 6:1:20789") == "pagelock: dbid=6 fileid=1 pageid=20789");
  CHECK(parts("PAGE: 6:1:20789 ") == "pagelock: dbid=6 fileid=1 pageid=20789");
  CHECK(parts("EXT: 6:1:9") == "extentlock: dbid=6 fileid=1 pageid=9");
  CHECK(parts("DB: 6[BULK-OP-LOG]") == "databaselock: dbid=6 subresource=BULK-OP-LOG");
  CHECK(parts("APP: Formf370f478") == "applicationlock: resource=Formf370f478");
  CHECK(parts("METADATA: database_id = 5 USER_TYPE(user_type_id = 258)") ==
        "metadatalock: resource=database_id = 5 USER_TYPE(user_type_id = 258)");
  CHECK(parts("exchangeEvent id=Pipe1") == "none");
}

TEST_CASE("sqlserver edges: a granted owner is hard, a conversion ahead and a waiter ahead are soft", "[sqlserver]") {
  std::string res =
      "<keylock hobtid=\"1\" dbid=\"5\" objectname=\"db.dbo.t\" indexname=\"pk\" id=\"lockA\" mode=\"IS\">" +
      Lists("<owner id=\"p1\" mode=\"IS\"/><owner id=\"p1\" mode=\"X\" requestType=\"convert\"/>",
            "<waiter id=\"p2\" mode=\"X\" requestType=\"wait\"/><waiter id=\"p3\" mode=\"S\" requestType=\"wait\"/>") +
      "</keylock>\n<keylock hobtid=\"2\" dbid=\"5\" objectname=\"db.dbo.t\" indexname=\"ix\" id=\"lockB\" mode=\"X\">" +
      Lists("<owner id=\"p3\" mode=\"X\"/>", "<waiter id=\"p1\" mode=\"Q\" requestType=\"wait\"/>") + "</keylock>\n";
  Deadlock d = Read(Graph("p1", {"p1:51:0", "p2:52:0", "p3:53:0"}, res));
  CHECK(Edges(d) ==
        "cycle p1 -Q(wait)/keylock:lockB-> p3 holding X [derived]\n"
        "cycle p3 -S(wait)/keylock:lockA-> p1 holding X [soft]\n"
        "other p2 -X(wait)/keylock:lockA-> p1 holding IS [hard]\n"
        "other p3 -S(wait)/keylock:lockA-> p2 holding X [soft]\n");
  CHECK(d.complete);
}

TEST_CASE("sqlserver edges: compatible modes make no edge, so no cycle", "[sqlserver]") {
  std::string res = "<keylock id=\"a\" mode=\"S\">" + Lists("<owner id=\"p1\" mode=\"S\"/>", "<waiter id=\"p2\" mode=\"S\" requestType=\"wait\"/>") +
                    "</keylock><keylock id=\"b\" mode=\"X\">" + Lists("<owner id=\"p2\" mode=\"X\"/>", "<waiter id=\"p1\" mode=\"X\" requestType=\"wait\"/>") +
                    "</keylock>\n";
  Deadlock d = Read(Graph("p1", {"p1:51:0", "p2:52:0"}, res));
  CHECK(d.edges.empty());
  CHECK(d.other_edges.size() == 1);
  CHECK_FALSE(d.complete);
  CHECK(d.problems == std::vector<std::string>{"the victim p1 is on no cycle of the reported waits",
                                               "the owner and waiter lists make no cycle"});
}

TEST_CASE("sqlserver edges: intra-query parallelism with no victim", "[sqlserver]") {
  std::string res;
  const char* pairs[][2] = {{"w1", "w2"}, {"w2", "w3"}, {"w3", "w1"}};
  int node = 0;
  for (auto& p : pairs)
    ++node, res += "<exchangeEvent id=\"Pipe" + std::to_string(node) + "\" WaitType=\"e_waitPipeGetRow\" nodeId=\"" +
           std::to_string(node) + "\">" + Lists(std::string("<owner id=\"") + p[1] + "\"/>",
                                                  std::string("<waiter id=\"") + p[0] + "\"/>") + "</exchangeEvent>\n";
  Deadlock d = Read(Graph("", {"w1:71:0", "w2:71:4", "w3:71:6"}, res));
  CHECK(d.parallel);
  CHECK(d.victim.empty());
  CHECK(d.victims.empty());
  CHECK(d.complete);
  CHECK(Edges(d) ==
        "cycle w1 -/exchangeEvent:Pipe1-> w2 holding  [reported]\n"
        "cycle w2 -/exchangeEvent:Pipe2-> w3 holding  [reported]\n"
        "cycle w3 -/exchangeEvent:Pipe3-> w1 holding  [reported]\n");
  CHECK(d.edges[0].lock.Label() == "exchangeEvent Pipe1 (e_waitPipeGetRow, node 1)");
}

TEST_CASE("sqlserver resources: every kind kept, xactlock through its underlying key", "[sqlserver]") {
  std::string res =
      "<xactlock xdesIdLow=\"1\" xdesIdHigh=\"0\" dbid=\"5\" id=\"x1\" mode=\"X\"><UnderlyingResource>"
      "<keylock hobtid=\"9\" dbid=\"5\" objectname=\"db.dbo.t\" indexname=\"pk\"/></UnderlyingResource>" +
      Lists("<owner id=\"p1\" mode=\"X\"/>", "<waiter id=\"p2\" mode=\"S\" requestType=\"wait\"/>") + "</xactlock>\n" +
      "<applicationlock hash=\"h\" databasePrincipalId=\"0\" dbid=\"5\" id=\"a1\" mode=\"X\">" +
      Lists("<owner id=\"p2\" mode=\"X\"/>", "<waiter id=\"p1\" mode=\"X\" requestType=\"wait\"/>") + "</applicationlock>\n" +
      "<rowgrouplock dbid=\"5\" objectname=\"db.dbo.cs\" id=\"r1\" mode=\"S\">" + Lists("", "") + "</rowgrouplock>\n" +
      "<futurelock dbid=\"5\" id=\"f1\" mode=\"S\">" + Lists("", "") + "</futurelock>\n";
  Deadlock d = Read(Graph("p1", {"p1:51:0", "p2:52:0"}, res));
  REQUIRE(d.resources.size() == 4);
  CHECK(test::LockString(d.resources[0].lock) ==
        "xactlock{xdesIdLow=1,xdesIdHigh=0,dbid=5#,id=x1,underlying=keylock,hobtid=9,objectname=db.dbo.t,indexname=pk} ''");
  CHECK(d.resources[1].lock.type == "applicationlock");
  CHECK(d.resources[2].lock.type == "rowgrouplock");
  CHECK(test::LockString(d.resources[3].lock) == "futurelock{dbid=5#,id=f1} ''");
  CHECK(Edges(d) ==
        "cycle p1 -X(wait)/applicationlock:a1-> p2 holding X [hard]\n"
        "cycle p2 -S(wait)/xactlock:x1-> p1 holding X [hard]\n");
}

TEST_CASE("sqlserver edges: a process named in the lists but not in the process list", "[sqlserver]") {
  std::string res = "<keylock id=\"a\" mode=\"X\">" + Lists("<owner id=\"ghost\" mode=\"X\"/>", "<waiter id=\"p1\" mode=\"X\" requestType=\"wait\"/>") + "</keylock>\n";
  Deadlock d = Read(Graph("p1", {"p1:51:0"}, res));
  CHECK_FALSE(d.complete);
  CHECK(d.problems.front() == "process ghost is named but not in the process list");
}

}  // namespace lockgraph
