// MySQL / MariaDB lock snapshots: rows of docs/mysql-snapshot.sql to
// processes, edges, blocking trees and MY009, on the real MariaDB 10.11
// snapshot of samples/mysql/snapshots/ (scripts/make-mysql-watch-samples.sh:
// an idle blocker with two waiters, a chain of three, an ALTER TABLE waiting
// for a metadata lock), saved as --batch and as --vertical; and the
// LATEST DETECTED DEADLOCK section of a real status. The live watch:
// tests/e2e/mysql_watch.sh.
#include <catch2/catch.hpp>

#include "parsers/mysql/innodb_status_deadlock.h"
#include "parsers/mysql/my_lock_snapshot.h"
#include "support.h"
#include "watch/dsn.h"

namespace lockgraph {
namespace {

using test::AnalyzeText;
using test::ReadFile;

const std::string kDir = std::string(LOCKGRAPH_SAMPLES_DIR) + "/mysql/snapshots/";

std::string Edge(const WaitEdge& e) {
  return e.waiter + " -" + e.mode + " on " + e.lock.Label() + "-> " + e.blocker + " " +
         EdgeBasisName(e.basis) + (e.derived ? " derived" : "") +
         (e.blocker_mode.empty() ? "" : " holding " + e.blocker_mode);
}

// "root 6 idle in transaction [7@1 8@1] {edges} findings"
std::string Chain(const Event& ev) {
  const BlockingTree& t = *ev.chain;
  const Backend& root = t.members.front().backend;
  std::string s = "root " + root.id + " " + root.state + " [";
  for (size_t i = 1; i < t.members.size(); ++i)
    s += (i > 1 ? " " : "") + t.members[i].backend.id + "@" + std::to_string(t.members[i].depth);
  s += "] {";
  for (size_t i = 0; i < t.edges.size(); ++i) s += (i ? "; " : "") + Edge(t.edges[i]);
  s += "}";
  for (const Finding& f : ev.findings) s += " " + f.rule_id;
  return s;
}

// What differs between the --batch and the --vertical sample (two runs of
// the query): the time and the ages.
struct Moment {
  const char* time;
  int64_t epoch_ms;
  double root_state_ms, root_xact_ms, waiter_wait_ms;
  const char* message;
};

void CheckSample(const Report& r, const Moment& m) {
  REQUIRE(r.events.size() == 4);
  const Event& head = r.events[0];
  REQUIRE(head.snapshot);
  CHECK(head.engine == "mysql");
  CHECK(head.time == m.time);
  CHECK(head.epoch_ms == m.epoch_ms);
  CHECK(head.snapshot->blocking == "information_schema.innodb_lock_waits");
  CHECK(head.snapshot->locks == 9);     // 5 InnoDB waits, 4 metadata locks
  CHECK(head.snapshot->backends == 9);  // 6 7 8 10 11 12 14 15 16
  CHECK(head.snapshot->waiting == 6);
  CHECK(head.snapshot->chains == 3);
  CHECK(head.snapshot->cycles == 0);
  const std::string rec = " on record shop.account index PRIMARY heap ";
  CHECK(Chain(r.events[1]) ==
        "root 6 idle in transaction [7@1 8@1] {7 -X" + rec + "2-> 6 reported holding X; 8 -X" + rec +
            "2-> 7 soft holding X; 8 -X" + rec + "2-> 6 reported holding X} MY009");
  CHECK(Chain(r.events[2]) ==
        "root 10 idle in transaction [11@1 12@2] {11 -X" + rec + "4-> 10 reported holding X; 12 -X" +
            rec + "5-> 11 reported holding X} MY009");
  CHECK(Chain(r.events[3]) ==
        "root 14 idle in transaction [15@1 16@2] {15 -EXCLUSIVE on metadata lock on `shop`.`ledger`-> "
        "14 hard derived holding SHARED_READ; 16 -SHARED_READ on metadata lock on `shop`.`ledger`-> "
        "15 soft derived holding EXCLUSIVE} MY009");
  // The idle root of the first tree, every field.
  const Backend& root = r.events[1].chain->members.front().backend;
  CHECK(root.pid == 6);
  CHECK(root.xid == uint64_t(29));
  CHECK(root.xact_age_ms == Approx(m.root_xact_ms));
  CHECK(root.state_age_ms == Approx(m.root_state_ms));
  CHECK(root.rows_locked == 1);
  CHECK(root.query.empty());  // a sleeping session shows no statement
  CHECK(root.session.user == "root");
  CHECK(root.session.database == "shop");
  CHECK(root.session.host.rfind("127.0.0.1:", 0) == 0);
  CHECK(root.session.command_tag == "Sleep");
  REQUIRE(root.holds.size() == 1);
  CHECK(root.holds[0].mode == "X");
  CHECK(root.holds[0].lock.Key() == "record:shop/account/PRIMARY/5/3/2/1");
  const Backend& waiter = r.events[1].chain->members[1].backend;
  CHECK(waiter.state == "active");
  CHECK(waiter.wait_event == "Updating");
  CHECK(waiter.wait_age_ms == Approx(m.waiter_wait_ms));
  CHECK(waiter.query == "UPDATE account SET balance = balance + 2 WHERE id = 1");
  const Finding& f = r.events[1].findings.front();
  CHECK(f.message == m.message);
  CHECK(f.hint.find("Now: `KILL 6` releases the locks") != std::string::npos);
}

const Moment kBatch = {"2026-12-03 16:43:11.737140", 1796316191737, 3012.803, 3737.1, 2737.1,
                       "connection 6 sleeps with its transaction open for 3.0 s (transaction open "
                       "3.7 s) and blocks 7 and 8"};

TEST_CASE("mysql snapshot: --batch output of the real MariaDB sample", "[mysql-snapshot]") {
  Report r = AnalyzeText(ReadFile(kDir + "mariadb-10.11-snapshot.tsv"));
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "mysql-snapshot");
  CHECK(r.inputs[0].lines.unparsed == 0);
  CheckSample(r, kBatch);
}

TEST_CASE("mysql snapshot: --vertical (\\G) output of the same snapshot", "[mysql-snapshot]") {
  Report r = AnalyzeText(ReadFile(kDir + "mariadb-10.11-snapshot.vertical.txt"));
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "mysql-snapshot");
  CHECK(r.inputs[0].lines.unparsed == 0);
  CheckSample(r, {"2026-12-03 16:43:11.869675", 1796316191869, 3144.346, 3869.7, 2869.7,
                  "connection 6 sleeps with its transaction open for 3.1 s (transaction open 3.9 s) "
                  "and blocks 7 and 8"});
}

TEST_CASE("mysql snapshot: a bad row is reported, not dropped", "[mysql-snapshot]") {
  std::string tsv = ReadFile(kDir + "mariadb-10.11-snapshot.tsv");
  tsv.insert(tsv.find('\n') + 1, "2026-12-03 16:15:22.517519\twait\tx\n");
  Report r = AnalyzeText(tsv);
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].lines.unparsed == 1);
  CheckSample(r, kBatch);
}

TEST_CASE("mysql snapshot: metadata lock matrices", "[mysql-snapshot]") {
  auto row = [](int id, const char* status, const char* mode) {
    MyLockRow r;
    r.kind = "mdl";
    r.id = id;
    r.trx_state = status;
    r.lock_mode = mode;
    r.lock_type = "METADATA";
    r.lock_table = "`s`.`t`";
    return r;
  };
  MyLockSnapshot s;
  s.rows = {row(1, "GRANTED", "SHARED_WRITE"), row(2, "PENDING", "SHARED_READ"),
            row(3, "PENDING", "SHARED_NO_READ_WRITE"), row(4, "GRANTED", "SHARED_READ")};
  SnapshotAnalysis a = AnalyzeMyLockSnapshot(s);
  // SR is compatible with the granted SW and SR; SNRW waits for both; SR
  // queues behind the pending SNRW.
  std::string edges;
  for (const WaitEdge& e : a.edges) edges += Edge(e) + "; ";
  CHECK(edges ==
        "2 -SHARED_READ on metadata lock on `s`.`t`-> 3 soft derived holding SHARED_NO_READ_WRITE; "
        "3 -SHARED_NO_READ_WRITE on metadata lock on `s`.`t`-> 1 hard derived holding SHARED_WRITE; "
        "3 -SHARED_NO_READ_WRITE on metadata lock on `s`.`t`-> 4 hard derived holding SHARED_READ; ");
}

TEST_CASE("mysql watch: the LATEST DETECTED DEADLOCK section of a real status", "[mysql-snapshot]") {
  std::string status = ReadFile(std::string(LOCKGRAPH_SAMPLES_DIR) + "/mysql/mariadb-opposite_order.status.txt");
  std::string section = LatestDeadlockSection(status);
  CHECK(section.rfind("LATEST DETECTED DEADLOCK\n", 0) == 0);
  CHECK(section.find("TRANSACTIONS\n") == std::string::npos);
  CHECK(section.find("WE ROLL BACK TRANSACTION (1)") != std::string::npos);
  std::vector<Event> events = ReadInnodbDeadlocks(section, "server");
  REQUIRE(events.size() == 1);
  CHECK(events[0].engine == "mysql");
  CHECK(events[0].deadlock->complete);
  CHECK(events[0].deadlock->processes.size() == 2);
  CHECK(LatestDeadlockSection("=====\nTRANSACTIONS\n------------\n") == "");
}

TEST_CASE("mysql watch: passwords of mysql:// URIs are masked", "[mysql-snapshot]") {
  CHECK(MaskDsn("mysql://app:s3cret@db:3306/shop?socket=/run/x.sock") ==
        "mysql://app:***@db:3306/shop?socket=/run/x.sock");
  CHECK(MaskDsn("mariadb://app:s3cret@db/shop") == "mariadb://app:***@db/shop");
  CHECK(MaskDsn("mysql://app@db/shop") == "mysql://app@db/shop");
}

}  // namespace
}  // namespace lockgraph
