// HtmlEvents (src/emit/html_events.h) keeps what the HTML report shows of
// events that come in any order (a wait is made when it ends): the first
// occurrences of a group and its example, the waits with the longest
// chains, and their numbers in log order, whatever the order of arrival.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "emit/html_events.h"

namespace lockgraph {
namespace {

struct Made {
  Event event;
  LogPlace place;
};

// 30 deadlocks of one signature and 80 lock waits (chains of 2 to 4, waits
// of 10 to 90 ms), one per line of one input.
std::vector<Made> MakeEvents() {
  std::vector<Made> out;
  for (uint64_t line = 1; line <= 110; ++line) {
    Event ev;
    ev.engine = "postgresql";
    ev.source.file = "x.log";
    ev.source.first_line = ev.source.last_line = line;
    ev.time = "2026-12-02 10:00:" + std::string(line < 10 ? "0" : "") + std::to_string(line % 60) + " UTC";
    if (line % 11 == 0 || line <= 19) {
      ev.type = EventType::kDeadlock;
      ev.signature = "sig";
      Deadlock& d = ev.deadlock.emplace();
      d.victim = std::to_string(1000 + line);
    } else {
      ev.type = EventType::kLockWait;
      LockWait& w = ev.lock_wait.emplace();
      w.waiter = std::to_string(2000 + line);
      for (uint64_t i = 0; i < 2 + line % 3; ++i) w.chain.push_back(int64_t(2000 + line + i));
      w.waited_ms = double(10 * (1 + line % 9));
    }
    out.push_back({std::move(ev), {0, line, line}});
  }
  return out;
}

struct Seen {
  std::vector<std::pair<int, std::string>> rows;  // deadlock number, time
  size_t count = 0;
  std::string example;
  std::vector<std::pair<int, std::string>> waits;  // number, waiter
  uint64_t lock_waits = 0;
};

Seen Take(const std::vector<Made>& events) {
  HtmlEvents kept(20, 50);
  for (const Made& m : events) kept.Add(m.event, m.place, false);
  Report report;
  kept.Finish(report);
  Seen s;
  GroupOccurrences occ = kept.Occurrences("sig");
  s.count = occ.count;
  for (const auto& r : occ.rows) s.rows.push_back({r.deadlock_no, r.time});
  if (occ.example) s.example = occ.example->time;
  for (const WaitRow& w : kept.Waits()) s.waits.push_back({w.no, w.event->lock_wait->waiter});
  s.lock_waits = kept.lock_waits();
  return s;
}

TEST_CASE("the HTML report keeps the same rows whatever order events come in", "[html]") {
  std::vector<Made> events = MakeEvents();
  const Seen in_order = Take(events);
  CHECK(in_order.count == 28);  // lines 1-19, and 22, 33, ..., 110
  REQUIRE(in_order.rows.size() == 20);
  CHECK(in_order.rows.front() == std::pair<int, std::string>(1, "2026-12-02 10:00:01 UTC"));
  CHECK(in_order.rows.back().first == 20);
  CHECK(in_order.example == "2026-12-02 10:00:01 UTC");
  CHECK(in_order.lock_waits == 82);
  REQUIRE(in_order.waits.size() == 50);
  // The longest chains first (line % 3 == 2: four members), the longest
  // waits among them (line % 9 == 8: 90 ms), then log order: lines 26 (the
  // sixth wait: 22 is a deadlock), 35, 53, ...
  CHECK(in_order.waits[0] == std::pair<int, std::string>(6, "2026"));
  CHECK(in_order.waits[1] == std::pair<int, std::string>(14, "2035"));
  CHECK(in_order.waits[2].second == "2053");
  std::mt19937 shuffle(7);
  for (int round = 0; round < 5; ++round) {
    std::shuffle(events.begin(), events.end(), shuffle);
    const Seen any_order = Take(events);
    CHECK(any_order.rows == in_order.rows);
    CHECK(any_order.count == in_order.count);
    CHECK(any_order.example == in_order.example);
    CHECK(any_order.waits == in_order.waits);
  }
}

}  // namespace
}  // namespace lockgraph
