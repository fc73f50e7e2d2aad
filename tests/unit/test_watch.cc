// `lockgraph watch` pieces that need no server: masking passwords, durations,
// and what changes between two polls. The polling itself is tested against a
// real server by tests/e2e/watch.sh.
#include <catch2/catch.hpp>

#include "parsers/postgresql/pg_snapshot.h"
#include "support.h"
#include "watch/dsn.h"
#include "watch/duration.h"
#include "watch/snapshot_source.h"
#include "watch/wait_tracker.h"

namespace lockgraph {
namespace {

PgSnapshotAnalysis Poll(const std::string& sampled_at,
                        std::vector<std::tuple<int, const char*, bool, const char*>> rows) {
  PgSnapshot s;
  s.has_blocking_pids = false;
  s.server = "db1";
  s.sampled_at = sampled_at;
  for (auto& [pid, xid, granted, mode] : rows) {
    PgLockRow r;
    r.sampled_at = sampled_at;
    r.pid = pid;
    r.locktype = "transactionid";
    r.transactionid = xid;
    r.mode = mode;
    r.granted = granted;
    if (!granted) r.waitstart = "2026-01-01 00:00:00+00";
    s.rows.push_back(r);
  }
  return AnalyzePgSnapshot(s);
}

std::string Kinds(const std::vector<Event>& events) {
  std::string s;
  for (const Event& ev : events)
    s += (s.empty() ? "" : ", ") + std::string(EventTypeName(ev.type)) + " " +
         std::to_string(ev.pid.value_or(-1));
  return s;
}

}  // namespace

TEST_CASE("docs/snapshot.sql is the query watch runs (the build embeds it)", "[watch]") {
  CHECK(test::ReadFile(std::string(LOCKGRAPH_SOURCE_DIR) + "/docs/snapshot.sql") ==
        PgSnapshotQuery());
}

TEST_CASE("MaskDsn hides every password, in both libpq forms", "[watch]") {
  CHECK(MaskDsn("host=db1 dbname=shop password=s3cret user=app") ==
        "host=db1 dbname=shop password=*** user=app");
  CHECK(MaskDsn("host=db1 password = 'it\\'s a secret' sslpassword=x") ==
        "host=db1 password = *** sslpassword=***");
  CHECK(MaskDsn("postgresql://app:s3cret@db1:5432/shop?sslmode=require&password=again") ==
        "postgresql://app:***@db1:5432/shop?sslmode=require&password=***");
  CHECK(MaskDsn("postgres://app@db1/shop") == "postgres://app@db1/shop");
  CHECK(MaskDsn("postgresql://app:p%40ss@[::1]:5432") == "postgresql://app:***@[::1]:5432");
  CHECK(MaskDsn("service=prod") == "service=prod");
  CHECK(MaskDsn("host=db1 PASSWORD=s3cret") == "host=db1 PASSWORD=***");
  CHECK(MaskDsn("dbname=postgresql://app:s3cret@db1/shop user=x") ==
        "dbname=postgresql://app:***@db1/shop user=x");
  CHECK(MaskDsn("dbname='host=db1 password=s3cret' port=5432") ==
        "dbname='host=db1 password=***' port=5432");
  CHECK(MaskDsn("dbname=shop") == "dbname=shop");
  CHECK(MaskDsn("") == "");
}

TEST_CASE("durations on the command line", "[watch]") {
  CHECK(ParseDurationMs("250ms") == 250);
  CHECK(ParseDurationMs("1s") == 1000);
  CHECK(ParseDurationMs("1.5s") == 1500);
  CHECK(ParseDurationMs("2") == 2000);
  CHECK(ParseDurationMs("2m") == 120000);
  CHECK(ParseDurationMs("1h") == 3600000);
  CHECK_FALSE(ParseDurationMs("-1s"));
  CHECK_FALSE(ParseDurationMs("1 s"));
  CHECK_FALSE(ParseDurationMs("s"));
  CHECK_FALSE(ParseDurationMs("1d"));
}

TEST_CASE("WaitTracker: waits start and end between polls; chains only when they change",
          "[watch]") {
  WaitTracker t;
  // Poll 1: 200 waits for 100's transaction.
  auto p1 = Poll("2026-01-01 00:00:01+00", {{100, "900", true, "ExclusiveLock"},
                                            {200, "900", false, "ShareLock"}});
  auto e1 = t.Update(p1.backends, p1.edges, p1.events);
  CHECK(Kinds(e1) == "wait_started 200, chain 100");
  CHECK(e1[0].wait_change->blocked_by == std::vector<std::string>{"100"});
  CHECK(e1[0].server == "db1");
  CHECK(t.shape_changed());
  // Poll 2: the same picture, one second older: nothing to say.
  auto p2 = Poll("2026-01-01 00:00:02+00", {{100, "900", true, "ExclusiveLock"},
                                            {200, "900", false, "ShareLock"}});
  CHECK(Kinds(t.Update(p2.backends, p2.edges, p2.events)).empty());
  CHECK_FALSE(t.shape_changed());
  // Poll 3: 300 queues behind 100 too; the chain grows.
  auto p3 = Poll("2026-01-01 00:00:03+00", {{100, "900", true, "ExclusiveLock"},
                                            {200, "900", false, "ShareLock"},
                                            {300, "900", false, "ShareLock"}});
  CHECK(Kinds(t.Update(p3.backends, p3.edges, p3.events)) == "wait_started 300, chain 100");
  CHECK(t.shape_changed());
  // Poll 4: 100 committed: no chain left; 200 and 300 are nowhere, which
  // may be a step between two locks: their ends wait for the next poll.
  auto p4 = Poll("2026-01-01 00:00:04+00", {});
  auto e4 = t.Update(p4.backends, p4.edges, p4.events);
  CHECK(Kinds(e4) == "chain_ended 100");
  CHECK(e4[0].chain->members.front().backend.id == "100");
  CHECK(e4[0].time == "2026-01-01 00:00:04+00");
  CHECK(t.shape_changed());
  // Poll 5: still not waiting: both waits ended, as poll 4 saw.
  auto p5 = Poll("2026-01-01 00:00:05+00", {});
  auto e5 = t.Update(p5.backends, p5.edges, p5.events);
  CHECK(Kinds(e5) == "wait_ended 200, wait_ended 300");
  CHECK(e5[0].time == "2026-01-01 00:00:04+00");
  // Waiting since 00:00:00, last seen at 00:00:03, gone at 00:00:04.
  CHECK(e5[0].wait_change->waited_ms == Approx(4000));
  CHECK_FALSE(t.shape_changed());
  CHECK(t.Finish().empty());
}

TEST_CASE("MaskSecrets hides what an error echoes back", "[watch]") {
  CHECK(MaskSecrets("FATAL:  password authentication failed for user \"s3cret\"", {"s3cret", ""}) ==
        "FATAL:  password authentication failed for user \"***\"");
  CHECK(MaskSecrets("a s3crets3cret b", {"s3cret"}) == "a ****** b");
  CHECK(MaskSecrets("nothing here", {}) == "nothing here");
}

TEST_CASE("WaitTracker: a waiter whose blocker went away waits on: wait_changed, not ended",
          "[watch]") {
  WaitTracker t;
  // 100 holds xid 900; 200 and 300 wait for it.
  auto p1 = Poll("2026-01-01 00:00:01+00", {{100, "900", true, "ExclusiveLock"},
                                            {200, "900", false, "ShareLock"},
                                            {300, "900", false, "ShareLock"}});
  CHECK(Kinds(t.Update(p1.backends, p1.edges, p1.events)) ==
        "wait_started 200, wait_started 300, chain 100");
  // 100 was killed; 300 went on and holds xid 901; 200, in the same
  // statement, now waits for 300.
  auto p2 = Poll("2026-01-01 00:00:05+00", {{300, "901", true, "ExclusiveLock"},
                                            {200, "901", false, "ShareLock"}});
  auto e2 = t.Update(p2.backends, p2.edges, p2.events);
  CHECK(Kinds(e2) == "wait_ended 300, wait_changed 200, chain_ended 100, chain 300");
  const WaitChange& w = *e2[1].wait_change;
  CHECK(w.waiter.wait_mode == "ShareLock");
  CHECK(w.waiter.wait_lock.Key() == p2.backends.at("200").wait_lock.Key());
  CHECK(w.previous_mode == "ShareLock");
  CHECK(w.previous_lock.Key() == p1.backends.at("200").wait_lock.Key());
  CHECK(w.previous_lock.Key() != w.waiter.wait_lock.Key());
  CHECK(w.blocked_by == std::vector<std::string>{"300"});
  CHECK(w.waited_ms == Approx(5000));  // since 00:00:00, over both locks
  // 300 commits: the one wait of 200 ends, counted from its first lock
  // (said at the next poll, stamped with this one).
  auto p3 = Poll("2026-01-01 00:00:06+00", {});
  CHECK(Kinds(t.Update(p3.backends, p3.edges, p3.events)) == "chain_ended 300");
  auto p4 = Poll("2026-01-01 00:00:07+00", {});
  auto e4 = t.Update(p4.backends, p4.edges, p4.events);
  CHECK(Kinds(e4) == "wait_ended 200");
  CHECK(e4[0].time == "2026-01-01 00:00:06+00");
  CHECK(e4[0].wait_change->waited_ms == Approx(6000));
}

TEST_CASE("WaitTracker: a waiter missing from one poll, between two locks of its statement, "
          "waits on: wait_changed, not ended and started again", "[watch]") {
  // A tuple-lock queue whose holder goes: the waiter behind is granted the
  // tuple lock and has not yet queued for the new holder's transaction when
  // a poll comes; a snapshot of contested locks shows it nowhere.
  WaitTracker t;
  auto p1 = Poll("2026-01-01 00:00:01+00", {{100, "900", true, "ExclusiveLock"},
                                            {200, "900", false, "ShareLock"}});
  CHECK(Kinds(t.Update(p1.backends, p1.edges, p1.events)) == "wait_started 200, chain 100");
  auto p2 = Poll("2026-01-01 00:00:02+00", {});
  CHECK(Kinds(t.Update(p2.backends, p2.edges, p2.events)) == "chain_ended 100");
  auto p3 = Poll("2026-01-01 00:00:03+00", {{300, "901", true, "ExclusiveLock"},
                                            {200, "901", false, "ShareLock"}});
  auto e3 = t.Update(p3.backends, p3.edges, p3.events);
  CHECK(Kinds(e3) == "wait_changed 200, chain 300");
  CHECK(e3[0].time == "2026-01-01 00:00:03+00");
  CHECK(e3[0].wait_change->previous_lock.Key() == p1.backends.at("200").wait_lock.Key());
  CHECK(e3[0].wait_change->blocked_by == std::vector<std::string>{"300"});
  CHECK(e3[0].wait_change->waited_ms == Approx(3000));  // since 00:00:00, the gap included
  CHECK(t.Finish().empty());
  // Missing again, then the watch stops: Finish gives the held end.
  auto p4 = Poll("2026-01-01 00:00:04+00", {});
  CHECK(Kinds(t.Update(p4.backends, p4.edges, p4.events)) == "chain_ended 300");
  auto held = t.Finish();
  CHECK(Kinds(held) == "wait_ended 200");
  CHECK(held[0].time == "2026-01-01 00:00:04+00");
  CHECK(held[0].wait_change->waited_ms == Approx(4000));
  CHECK(t.Finish().empty());
  auto p5 = Poll("2026-01-01 00:00:05+00", {});
  CHECK(Kinds(t.Update(p5.backends, p5.edges, p5.events)).empty());
}

TEST_CASE("WaitTracker: missing from a poll, then waiting in another statement: ended, then started",
          "[watch]") {
  WaitTracker t;
  auto p1 = Poll("2026-01-01 00:00:01+00", {{100, "900", true, "ExclusiveLock"},
                                            {200, "900", false, "ShareLock"}});
  t.Update(p1.backends, p1.edges, p1.events);
  auto p2 = Poll("2026-01-01 00:00:02+00", {});
  t.Update(p2.backends, p2.edges, p2.events);
  auto p3 = Poll("2026-01-01 00:00:03+00", {{300, "901", true, "ExclusiveLock"},
                                            {200, "901", false, "ShareLock"}});
  p3.backends.at("200").query = "UPDATE t SET v = 2 WHERE id = 2";  // not the query of poll 1
  auto e3 = t.Update(p3.backends, p3.edges, p3.events);
  CHECK(Kinds(e3) == "wait_ended 200, wait_started 200, chain 300");
  CHECK(e3[0].time == "2026-01-01 00:00:02+00");
  CHECK(e3[1].time == "2026-01-01 00:00:03+00");
  // Seen, no longer waiting (it holds a contested lock now): ended at once.
  auto p4 = Poll("2026-01-01 00:00:04+00", {{200, "902", true, "ExclusiveLock"},
                                            {400, "902", false, "ShareLock"}});
  CHECK(Kinds(t.Update(p4.backends, p4.edges, p4.events)) ==
        "wait_ended 200, wait_started 400, chain_ended 300, chain 200");
}

TEST_CASE("WaitTracker: a cycle that clears gets cycle_ended", "[watch]") {
  WaitTracker t;
  auto p1 = Poll("2026-01-01 00:00:01+00", {{100, "900", true, "ExclusiveLock"},
                                            {200, "901", true, "ExclusiveLock"},
                                            {100, "901", false, "ShareLock"},
                                            {200, "900", false, "ShareLock"}});
  auto e1 = t.Update(p1.backends, p1.edges, p1.events);
  CHECK(Kinds(e1) == "wait_started 100, wait_started 200, cycle 100");
  auto p2 = Poll("2026-01-01 00:00:02+00", {});
  auto e2 = t.Update(p2.backends, p2.edges, p2.events);
  CHECK(Kinds(e2) == "cycle_ended 100");
  CHECK(e2[0].cycle->members.size() == 2);
  CHECK(e2[0].time == "2026-01-01 00:00:02+00");
  CHECK(Kinds(t.Finish()) == "wait_ended 100, wait_ended 200");
}

}  // namespace lockgraph
