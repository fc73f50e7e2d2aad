// The real server run samples/postgresql/scenarios.* rendered into each
// framing by scripts/render/framings.py (samples/postgresql/rendered/): each
// file must be detected with its framing and give the csvlog's deadlocks
// (victim, exact cycle, statement) and lock waits, and skip only the lines
// of the streams that are not PostgreSQL. Each event names the server its
// stream is (a compose service, a pod, a syslog host; grep's file series).
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "support.h"

namespace lockgraph {
namespace {

struct Seen {
  std::string format, framing, prefix;
  std::vector<std::string> deadlocks;  // in log order, without the time
  std::vector<std::string> waits;      // sorted
  std::set<std::string> servers;       // of every event ("" when none named)
  LineCounts lines;
};

Seen Analyze(const std::string& file) {
  Report r = test::AnalyzeText(test::ReadFile(std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/" + file));
  Seen seen;
  if (!r.inputs.empty()) {
    seen.format = r.inputs[0].format;
    seen.framing = r.inputs[0].framing;
    seen.prefix = r.inputs[0].detected;
    seen.lines = r.inputs[0].lines;
  }
  for (const Event& ev : r.events) {
    seen.servers.insert(ev.server);
    if (ev.deadlock) {
      const Deadlock& d = *ev.deadlock;
      seen.deadlocks.push_back("victim " + d.victim + ": " + test::CycleString(d) +
                               (d.complete ? "" : " (incomplete)") + " | " + d.statement);
    } else if (ev.lock_wait) {
      const LockWait& w = *ev.lock_wait;
      seen.waits.push_back(w.waiter + " " + w.mode + " " + w.lock.text + " " +
                           WaitOutcomeName(w.outcome) + " " + w.statement);
    }
  }
  std::sort(seen.waits.begin(), seen.waits.end());
  return seen;
}

struct Case {
  const char* file;
  const char* format;
  const char* framing;
  const char* prefix;
  uint64_t skipped;  // lines of other streams, grep's "--"
  std::set<std::string> servers;
};

TEST_CASE("every rendered framing gives the csvlog's deadlocks and lock waits",
          "[framing][samples]") {
  const Seen csv = Analyze("scenarios.csv");
  REQUIRE(csv.deadlocks.size() == 45);
  REQUIRE_FALSE(csv.waits.empty());
  const Case cases[] = {
      {"framing-docker-compose.log", "stderr", "docker-compose", "%m [%p] %q%u@%d/%a ", 303, {"db-1"}},
      {"framing-docker-compose-v1.log", "stderr", "docker-compose", "%m [%p] %q%u@%d/%a ", 0, {"db_1"}},
      {"framing-docker-timestamps.log", "stderr", "docker-timestamps", "%m [%p] %q%u@%d/%a ", 0, {""}},
      {"framing-kubectl.log", "stderr", "kubectl", "%m [%p] %q%u@%d/%a ", 193, {"pod/pg-0/postgres"}},
      {"framing-journald.log", "syslog", "", "%m [%p] %q%u@%d/%a ", 0, {"dbhost"}},
      {"framing-grep.log", "stderr", "grep", "%m [%p] %q%u@%d/%a ", 1,
       {"postgresql-15-a", "postgresql-15-b"}},
      {"framing-rds.log", "stderr", "", "%t:%r:%u@%d:[%p]:", 0, {""}},
      {"framing-cloudwatch.log", "stderr", "cloudwatch", "%t:%r:%u@%d:[%p]:", 0, {""}},
      {"framing-heroku.log", "stderr", "heroku", " sql_error_code = %e ", 0, {""}},
      {"framing-rfc5424.log", "stderr", "rfc5424", "%m [%p] %q%u@%d/%a ", 0, {"dbhost/postgres"}},
      {"framing-heroku-https.log.gz", "stderr", "heroku",
       R"( sql_error_code = %e time_ms = "%m" pid="%p" proc_start_time="%s" session_id="%c" )"
       R"(vtid="%v" tid="%x" log_line="%l" %qdatabase="%d" connection_source="%r" user="%u" )"
       R"(application_name="%a" )",
       0, {""}},
  };
  for (const Case& c : cases) {
    SECTION(c.file) {
      const Seen seen = Analyze(std::string("rendered/") + c.file);
      CHECK(seen.format == c.format);
      CHECK(seen.framing == c.framing);
      CHECK(seen.prefix == c.prefix);
      CHECK(seen.lines.unparsed == 0);
      CHECK(seen.lines.skipped == c.skipped);
      CHECK(seen.lines.parsed + c.skipped == seen.lines.total);
      CHECK(seen.deadlocks == csv.deadlocks);
      CHECK(seen.waits == csv.waits);
      CHECK(seen.servers == c.servers);
    }
  }
}

}  // namespace
}  // namespace lockgraph
