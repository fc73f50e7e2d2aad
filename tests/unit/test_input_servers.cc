// One input holding several servers: a cloud export of two instances (a Log
// Router sink over a project, an Event Hub fed by two servers), a central
// syslog of two hosts, kubectl logs of two pods. Each server's lines are
// read apart, and each event names its server (docs/postgresql.md#servers).
// The real run's renderings (samples/postgresql/rendered/) are given twice,
// the second copy as another server with the same pids, lines interleaved.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "support.h"

namespace lockgraph {
namespace {

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size())
    s.replace(at, from.size(), to);
  return s;
}

/// Each line of `one`, then the same line as instance `to` (from `from`).
std::string Interleave(const std::string& one, const std::string& from, const std::string& to) {
  std::string out;
  for (const std::string& line : test::SplitLines(one)) out += line + "\n" + Replace(line, from, to) + "\n";
  return out;
}

/// Server -> its deadlocks (victim and cycle), in order.
std::map<std::string, std::vector<std::string>> DeadlocksByServer(const Report& r) {
  std::map<std::string, std::vector<std::string>> by;
  for (const Event& ev : r.events)
    if (ev.deadlock) by[ev.server].push_back(ev.deadlock->victim + ": " + test::CycleString(*ev.deadlock));
  return by;
}

TEST_CASE("an input of two servers: each read apart and named", "[platform][framing][servers]") {
  const std::string dir = std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/rendered/";
  struct Case {
    const char* file;
    const char* from;  // the instance's name in the entry
    const char* to;    // the second instance's
    const char* server, *other;
  };
  const Case cases[] = {
      {"platform-gcp-ndjson.json", "\"database_id\":\"lg-project:lg-instance\"",
       "\"database_id\":\"lg-project:lg-replica\"", "lg-project:lg-instance", "lg-project:lg-replica"},
      {"platform-azure-pt1h.json", "FLEXIBLESERVERS/LG-SERVER", "FLEXIBLESERVERS/LG-OTHER",
       "LG-SERVER", "LG-OTHER"},
      {"framing-journald.log", " dbhost postgres[", " dbhost2 postgres[", "dbhost", "dbhost2"},
      {"framing-rfc5424.log", " dbhost postgres ", " dbhost2 postgres ", "dbhost/postgres",
       "dbhost2/postgres"},
      {"framing-kubectl.log", "[pod/pg-0/postgres]", "[pod/pg-1/postgres]", "pod/pg-0/postgres",
       "pod/pg-1/postgres"},
  };
  for (const Case& c : cases) {
    SECTION(c.file) {
      const std::string one = test::ReadFile(dir + c.file);
      const auto single = DeadlocksByServer(test::AnalyzeText(one));
      REQUIRE(single.size() == 1);
      REQUIRE(single.begin()->first == c.server);
      REQUIRE(single.begin()->second.size() == 45);
      const Report two = test::AnalyzeText(Interleave(one, c.from, c.to));
      CHECK(two.summary.lines.unparsed == 0);
      const auto by = DeadlocksByServer(two);
      REQUIRE(by.size() == 2);
      CHECK(by.at(c.server) == single.begin()->second);
      CHECK(by.at(c.other) == single.begin()->second);
    }
  }
}

}  // namespace
}  // namespace lockgraph
