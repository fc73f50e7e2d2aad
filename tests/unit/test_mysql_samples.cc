// Every field of every deadlock in the real MySQL / MariaDB samples of
// samples/mysql/ (SOURCES.md): processes, attributes, locks, edges with
// their basis, victims, problems, the rules that fire, and the line counts.
// The expected text (Describe's, one line per field) is in
// tests/mysql/<sample>.expected; LOCKGRAPH_UPDATE_GOLDEN=1 rewrites it (read
// the diff before committing).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "rule_test_util.h"
#include "support.h"

namespace lockgraph {
namespace {

std::string Fields(const LockTarget& l) {
  std::string s = l.type;
  for (const LockField& f : l.fields) s += " " + f.name + "=" + f.value + (f.numeric ? "#" : "");
  return s + " | " + l.text;
}

std::string Describe(const Report& r) {
  std::ostringstream out;
  const InputInfo& in = r.inputs.at(0);
  out << "format=" << in.format << " total=" << in.lines.total << " parsed=" << in.lines.parsed
      << " skipped=" << in.lines.skipped << " unparsed=" << in.lines.unparsed
      << " diagnostics=" << r.diagnostics.size() << " events=" << r.events.size() << "\n";
  for (const Event& ev : r.events) {
    const Deadlock& d = *ev.deadlock;
    out << "\nevent engine=" << ev.engine << " time=" << ev.time << " lines=" << ev.source.first_line
        << "-" << ev.source.last_line << " truncated=" << ev.truncated << " message=" << d.message
        << " sqlstate=" << d.sqlstate << " complete=" << d.complete << " signature=" << ev.signature
        << "\n";
    out << "victim=" << d.victim << " victims=";
    for (const std::string& v : d.victims) out << v << ";";
    out << " session user=" << ev.session.user << " host=" << ev.session.host << "\n";
    for (const std::string& p : d.problems) out << "problem: " << p << "\n";
    for (const Participant& p : d.processes) {
      out << "process " << p.id << " pid=" << (p.pid ? std::to_string(*p.pid) : "-")
          << " user=" << p.session.user << " host=" << p.session.host << " query_id="
          << (p.session.query_id ? std::to_string(*p.session.query_id) : "-")
          << " wait_mode=" << p.wait_mode << " wait_resource=" << p.wait_resource << "\n";
      out << "  query=" << p.query << "\n  attributes";
      for (const LockField& a : p.attributes) out << " " << a.name << "=" << a.value << (a.numeric ? "#" : "");
      out << "\n";
    }
    auto edge = [&](const char* what, const WaitEdge& e) {
      out << what << " " << e.waiter << " -" << e.mode << "-> " << e.blocker << " holding "
          << e.blocker_mode << " [" << EdgeBasisName(e.basis) << (e.derived ? ", derived" : "")
          << "] line " << e.line << "\n  lock " << Fields(e.lock) << "\n  label " << e.lock.Label() << "\n";
    };
    for (const WaitEdge& e : d.edges) edge("edge", e);
    for (const WaitEdge& e : d.other_edges) edge("other", e);
    out << "rules " << rule_test::RuleIds(ev) << "\n";
  }
  return out.str();
}

// "7 -X,REC_NOT_GAP/record shop.account index PRIMARY heap 2-> 6; ..."
std::string Cycle(const Deadlock& d) {
  std::string s;
  for (const WaitEdge& e : d.edges)
    s += (s.empty() ? "" : "; ") + e.waiter + " -" + e.mode + "/" + e.lock.Label() + "-> " + e.blocker;
  return s;
}

Report Sample(const std::string& name) {
  Report r = test::AnalyzeText(test::ReadFile(std::string(LOCKGRAPH_SAMPLES_DIR) + "/mysql/" + name));
  REQUIRE(r.inputs.size() == 1);
  std::string text = Describe(r);
  std::string expected_path = std::string(LOCKGRAPH_TEST_DIR) + "/mysql/" + name + ".expected";
  if (std::getenv("LOCKGRAPH_UPDATE_GOLDEN")) std::ofstream(expected_path, std::ios::binary) << text;
  INFO("expected in " << expected_path);
  CHECK(text == test::ReadFile(expected_path));
  return r;
}

}  // namespace

TEST_CASE("mysql sample: MariaDB error log, eight deadlocks", "[mysql][samples]") {
  Report r = Sample("mariadb-10.11-error.log");
  CHECK(r.inputs[0].format == "mysql");
  CHECK(r.inputs[0].lines.unparsed == 0);
  REQUIRE(r.events.size() == 8);  // mariadb-scenarios.tsv: Innodb_deadlocks = 8
  CHECK(Cycle(*r.events[0].deadlock) ==
        "7 -X,REC_NOT_GAP/record shop.account index PRIMARY heap 2-> 6; "
        "6 -X,REC_NOT_GAP/record shop.account index PRIMARY heap 3-> 7");
  const char* rules[] = {"MY007", "MY001 MY008", "MY001 MY008", "MY002",
                         "MY003", "MY003", "MY004 MY008", "MY006 MY008"};
  for (size_t i = 0; i < 8; ++i) {
    INFO("deadlock " << i + 1);
    CHECK(r.events[i].deadlock->complete);
    CHECK(rule_test::RuleIds(r.events[i]) == rules[i]);
  }
}

TEST_CASE("mysql samples: SHOW ENGINE INNODB STATUS after each scenario", "[mysql][samples]") {
  for (const char* name :
       {"mariadb-opposite_order.status.txt", "mariadb-gap_insert.status.txt",
        "mariadb-supremum_insert.status.txt", "mariadb-duplicate_key.status.txt",
        "mariadb-share_upgrade.status.txt", "mariadb-fk_parent.status.txt",
        "mariadb-secondary_vs_primary.status.txt", "mariadb-auto_inc.status.txt",
        "mariadb-opposite_order.status-table.txt"}) {
    INFO(name);
    Report r = Sample(name);
    CHECK(r.inputs[0].format == "mysql");
    CHECK(r.inputs[0].lines.unparsed == 0);
    REQUIRE(r.events.size() == 1);
    CHECK(r.events[0].deadlock->complete);
  }
}

TEST_CASE("mysql samples: public MySQL 5.x reports", "[mysql][samples]") {
  Report old = Sample("percona-toolkit-bug_903443-status.txt");
  REQUIRE(old.events.size() == 1);
  // (2) HOLDS names the blocker of (1): reported; (2) waits for (1): derived.
  CHECK(Cycle(*old.events[0].deadlock) ==
        "18 -X,REC_NOT_GAP/record test.a index PRIMARY heap 5-> 19; "
        "19 -X,REC_NOT_GAP/record test.a index PRIMARY heap 3-> 18");
  for (const char* name : {"innotop-innodb-status-004.txt", "innotop-innodb-status-007.txt"}) {
    INFO(name);
    Report r = Sample(name);
    CHECK(r.inputs[0].lines.unparsed == 0);
    REQUIRE(r.events.size() == 1);
    CHECK(r.events[0].deadlock->complete);
  }
  Report deep = Sample("percona-toolkit-bug_1195034-too-deep.txt");
  REQUIRE(deep.events.size() == 1);
  CHECK(deep.events[0].deadlock->victim.empty());
  CHECK(rule_test::RuleIds(deep.events[0]) == "MY006");
}

}  // namespace lockgraph
