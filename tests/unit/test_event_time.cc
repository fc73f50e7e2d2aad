// Times as the servers write them, read as instants (text/timestamp.h,
// analysis/event_time.h), and --since/--until on a real log.
#include <catch2/catch.hpp>

#include "analysis/event_time.h"
#include "app/analyzer.h"
#include "text/timestamp.h"

namespace lockgraph {
namespace {

std::string Iso(const std::string& zone, const std::string& text) {
  std::string error;
  auto r = TimeResolver::Make(zone, &error);
  REQUIRE(r);
  Event ev;
  ev.time = text;
  r->Apply(&ev);
  return ev.time_iso.empty() ? "-" : ev.time_iso + " " + ZoneFromName(ev.time_zone_from);
}

}  // namespace

TEST_CASE("timestamps of every engine are read into their parts", "[time]") {
  auto t = ParseTimestamp("2026-12-02 10:15:19.504 UTC");
  REQUIRE(t);
  CHECK(PlainTime(*t) == "2026-12-02 10:15:19.504");
  CHECK(t->zone == "UTC");
  CHECK(t->offset_minutes == 0);
  t = ParseTimestamp("2026-12-02 11:49:21.416406+00");
  REQUIRE(t);
  CHECK(t->fraction_digits == 6);
  CHECK(t->micros == 416406);
  CHECK(t->offset_minutes == 0);
  t = ParseTimestamp("2022-02-18T08:26:24.698Z");
  REQUIRE(t);
  CHECK(IsoTime(*t, *t->offset_minutes) == "2022-02-18T08:26:24.698+00:00");
  t = ParseTimestamp("120906  6:03:32");  // InnoDB, MySQL 5
  REQUIRE(t);
  CHECK(PlainTime(*t) == "2012-09-06 06:03:32");
  CHECK(!t->offset_minutes);
  t = ParseTimestamp("1733134519.504");  // %n
  REQUIRE(t);
  CHECK(t->epoch);
  CHECK(PlainTime(*t) == "2024-12-02 10:15:19.504");
  t = ParseTimestamp("2026-12-02 10:15:19 -0530");
  REQUIRE(t);
  CHECK(t->offset_minutes == -330);
  for (const char* bad : {"", "yesterday", "2026-13-02 10:15:19", "2026-12-02", "2026-12-02 10:15:19 C3T",
                          "12345", "2026-12-02 10:15:19+99"})
    CHECK_FALSE(ParseTimestamp(bad));
}

TEST_CASE("zones are read from the log first, then --timezone, then UTC", "[time]") {
  CHECK(Iso("", "2026-12-02 10:15:19.504 UTC") == "2026-12-02T10:15:19.504+00:00 log");
  CHECK(Iso("", "2026-12-02 10:15:19.504 CET") == "2026-12-02T10:15:19.504+01:00 log");
  CHECK(Iso("", "2026-07-02 10:15:19 CEST") == "2026-07-02T10:15:19+02:00 log");
  CHECK(Iso("", "2026-07-02 10:15:19 MSK") == "2026-07-02T10:15:19+03:00 log");  // via Europe/Moscow
  CHECK(Iso("", "2026-07-02 10:15:19 -03") == "2026-07-02T10:15:19-03:00 log");
  CHECK(Iso("", "2026-12-03 13:33:12") == "2026-12-03T13:33:12+00:00 default");
  CHECK(Iso("Europe/Berlin", "2026-12-03 13:33:12") == "2026-12-03T13:33:12+01:00 option");
  CHECK(Iso("Europe/Berlin", "2026-07-03 13:33:12") == "2026-07-03T13:33:12+02:00 option");
  CHECK(Iso("+05:30", "111212 22:52:42") == "2011-12-12T22:52:42+05:30 option");
  // A zone the log names wins over --timezone.
  CHECK(Iso("America/New_York", "2026-12-02 10:15:19 UTC") == "2026-12-02T10:15:19+00:00 log");
  // An abbreviation nobody here knows: no guess.
  CHECK(Iso("", "2026-12-02 10:15:19 XYZT") == "-");
  CHECK(Iso("", "1733134519.504") == "2024-12-02T10:15:19.504+00:00 log");
  std::string error;
  CHECK_FALSE(TimeResolver::Make("Mars/Olympus", &error));
  CHECK(error.find("unknown time zone \"Mars/Olympus\"") == 0);
}

TEST_CASE("--since and --until take ISO times and times ago", "[time]") {
  std::string error;
  auto utc = TimeResolver::Make("", &error);
  auto berlin = TimeResolver::Make("Europe/Berlin", &error);
  const int64_t now = 1'800'000'000'000'000;
  CHECK(ParseTimeBound("-2h", *utc, now, &error) == now - 7200'000'000LL);
  CHECK(ParseTimeBound("-1d", *utc, now, &error) == now - 86400'000'000LL);
  CHECK(ParseTimeBound("2026-12-02", *utc, now, &error) == 1796169600'000'000LL);
  CHECK(ParseTimeBound("2026-12-02T01:00", *berlin, now, &error) == 1796169600'000'000LL);
  CHECK(ParseTimeBound("2026-12-02 02:00:00+02:00", *utc, now, &error) == 1796169600'000'000LL);
  for (const char* bad : {"-2x", "2h", "1733134519", "tomorrow", "2026-12-02T"}) {
    error.clear();
    CHECK_FALSE(ParseTimeBound(bad, *utc, now, &error));
    CHECK(error.find("is not a time") != std::string::npos);
  }
}

TEST_CASE("--since/--until select the events of a real log and count the rest", "[time]") {
  auto run = [](std::optional<int64_t> since, std::optional<int64_t> until) {
    AnalyzeOptions options;
    options.since_us = since;
    options.until_us = until;
    Analyzer analyzer(options, nullptr);
    std::string error;
    REQUIRE(analyzer.AnalyzeInput(std::string(LOCKGRAPH_SOURCE_DIR) + "/samples/postgresql/scenarios.log", &error));
    return std::move(analyzer.Finish());
  };
  Report all = run(std::nullopt, std::nullopt);
  REQUIRE(all.summary.deadlocks > 10);
  // Every event has a time with its zone, so the window splits them exactly.
  std::vector<int64_t> times;
  for (const Event& ev : all.events) {
    REQUIRE(ev.epoch_ms);
    CHECK(ev.time_zone_from == ZoneFrom::kLog);
    times.push_back(*ev.epoch_ms);
  }
  std::sort(times.begin(), times.end());
  const int64_t mid = times[times.size() / 2] * 1000;
  Report before = run(std::nullopt, mid), after = run(mid, std::nullopt);
  CHECK(before.events.size() + after.events.size() == all.events.size());
  CHECK(before.summary.outside_window == after.events.size());
  CHECK(after.summary.outside_window == before.events.size());
  CHECK(before.summary.deadlocks + after.summary.deadlocks == all.summary.deadlocks);
  for (const Event& ev : after.events) CHECK(*ev.epoch_ms * 1000 >= mid);
  Report none = run(int64_t(0), int64_t(1));
  CHECK(none.events.empty());
  CHECK(none.summary.outside_window == all.events.size());
}

}  // namespace lockgraph
