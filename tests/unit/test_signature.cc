// Deadlock signatures (src/analysis/signature.h): equal whatever the pids,
// xids, times, keys and victim; different for another shape. And the log
// clock the retry-storm rule reads.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analysis/log_time.h"
#include "analysis/signature.h"
#include "rule_excerpts.h"
#include "rule_test_util.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;
using test::AnalyzeText;

namespace {

std::string SignatureOf(const Event& ev) {
  EventFacts facts = ReadEventFacts(ev);
  return SignDeadlock(*ev.deadlock, *facts.deadlock).id;
}

}  // namespace

TEST_CASE("signature: the other participant as victim gives the same signature",
          "[signature]") {
  Report r = AnalyzeText(excerpts::kRowOrder);
  Event ev = OnlyDeadlock(r);
  const std::string signature = SignatureOf(ev);
  CHECK(signature == ev.signature);
  Deadlock& d = *ev.deadlock;
  std::rotate(d.edges.begin(), d.edges.begin() + 1, d.edges.end());
  std::rotate(d.processes.begin(), d.processes.begin() + 1, d.processes.end());
  d.victim = d.edges.front().waiter;
  d.context.clear();  // the other victim would have had its own CONTEXT
  CHECK(SignatureOf(ev) == signature);
  // Another statement shape is another signature.
  CHECK(OnlyDeadlock(AnalyzeText(excerpts::kTableOrder)).signature != signature);
  CHECK(OnlyDeadlock(AnalyzeText(excerpts::kTextOrder)).signature != signature);
}

TEST_CASE("signature: members in the rotation that sorts first, with shapes and waits",
          "[signature]") {
  Report r = AnalyzeText(excerpts::kRetryStorm);
  REQUIRE(r.events.size() == 4);
  // The first and the last are 4-process cycles of the same shape, rotated.
  CHECK(r.events[0].signature == r.events[3].signature);
  CHECK(r.events[1].signature != r.events[0].signature);  // 3 processes
  CHECK(r.events[2].signature != r.events[1].signature);  // 2 processes
  EventFacts facts = ReadEventFacts(r.events[0]);
  DeadlockSignature s = SignDeadlock(*r.events[0].deadlock, *facts.deadlock);
  std::vector<std::string> waits;
  for (const SignatureMember& m : s.members) {
    CHECK(m.shape == "fp:" + QueryFingerprint("UPDATE counters SET n = n + 1 WHERE id = 1"));
    CHECK(m.statement == "update counters set n = n + ? where id = ?");
    waits.push_back(m.wait);
  }
  CHECK(waits == std::vector<std::string>{"ExclusiveLock tuple 16440", "ShareLock transactionid",
                                          "ExclusiveLock tuple 16440", "ShareLock transactionid"});
  CHECK(s.id == Fnv1a64Hex("cycle\n" + s.members[0].shape + " | ExclusiveLock tuple 16440\n" +
                           s.members[1].shape + " | ShareLock transactionid\n" +
                           s.members[2].shape + " | ExclusiveLock tuple 16440\n" +
                           s.members[3].shape + " | ShareLock transactionid"));
}

TEST_CASE("FNV-1a 64 and the log clock", "[signature]") {
  CHECK(Fnv1a64Hex("") == "cbf29ce484222325");
  CHECK(Fnv1a64Hex("a") == "af63dc4c8601ec8c");
  CHECK(*LogClockMs("1970-01-01 00:00:01.5 UTC") == 1500);
  CHECK(*LogClockMs("2026-12-02 11:26:15.084 UTC") - *LogClockMs("2026-12-02 11:26:14.752 UTC") == 332);
  CHECK(*LogClockMs("2024-02-29 23:59:59 CET") + 1000 == *LogClockMs("2024-03-01 00:00:00 CET"));
  CHECK(*LogClockMs("1733134519.504") == 1733134519504);
  CHECK(*LogClockMs("2026-12-02T10:15:19.504+00:00") == *LogClockMs("2026-12-02 10:15:19.504 UTC"));
  CHECK_FALSE(LogClockMs("nov. 30 02:30:07"));
  CHECK_FALSE(LogClockMs(""));
}
