// `lockgraph check` keeps no events (src/app/put_aside_events.h): it puts
// each one aside, encoded (src/model/event_codec.h), and reads them back once
// its verdict is known. Read back, every event must be the one the analyzer
// would have collected, every field, and check's reports must be those the
// collected events give, on every sample.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>
#include <sstream>

#include "app/analyzer.h"
#include "app/put_aside_events.h"
#include "emit/check_report.h"
#include "emit/event_json.h"
#include "emit/emitter.h"
#include "emit/source_paths.h"
#include "gate/check_gate.h"
#include "model/event_codec.h"
#include "support.h"

namespace fs = std::filesystem;

namespace lockgraph {
namespace {

std::string Bytes(const Event& ev) {
  std::string bytes;
  EncodeEvent(ev, &bytes);
  return bytes;
}

// The report `check` has: each deadlock group's example, no other event.
Report ExamplesOnly(const Report& report) {
  Report examples = report;
  examples.events.clear();
  std::set<std::string> seen;
  for (const Event& ev : report.events)
    if (ev.deadlock && seen.insert(ev.signature).second) examples.events.push_back(ev);
  return examples;
}

// WriteCheckJson's text.
std::string CheckJsonText(const CheckResult& c, const Report& report, int depth) {
  std::ostringstream out;
  WriteCheckJson(c, report, depth, out);
  return out.str();
}

const std::vector<std::string> kFormats = {"text", "json", "sarif", "junit", "github",
                                           "codequality"};

// Each format's report of `report` with the verdict of `limits`: from the
// collected events, and from those put aside in `aside` (as `check`).
void CompareReports(const Report& report, const CheckLimits& limits, PutAsideEvents& aside) {
  const CheckResult collected = EvaluateCheck(report, limits);
  const Report examples = ExamplesOnly(report);
  std::optional<CheckResult> decided = DecideCheck(examples, limits, aside);
  REQUIRE(decided);
  CHECK(decided->broken == collected.broken);
  CHECK(decided->stale == collected.stale);
  for (const std::string& format : kFormats) {
    INFO("format " << format);
    std::ostringstream want, got;
    std::unique_ptr<Emitter> e = FindEmitter(format);
    e->set_check(&collected);
    e->Write(report, want);
    e = FindEmitter(format);
    e->set_check(&*decided);
    REQUIRE(HandOverChecked(aside, examples, *e, got));
    e->Write(examples, got);
    CHECK(got.str() == want.str());
  }
}

}  // namespace

TEST_CASE("check: events put aside come back as collected, and give the same reports",
          "[check][codec]") {
  const std::string root = LOCKGRAPH_SOURCE_DIR;
  size_t inputs_with_events = 0, long_waits = 0, failing = 0;
  for (const fs::path input : test::SampleInputs()) {
    // The scenarios in 26 framings: the events of scenarios.log again
    // (test_renderings.cc), and 4 s an analysis under AddressSanitizer.
    if (input.parent_path().filename() == "rendered") continue;
    INFO("input " << input.string());
    PutAsideEvents aside(nullptr, 4096);  // a small budget: most come back from the file
    Analyzer analyzer(AnalyzeOptions{}, &aside);
    std::string error;
    if (!analyzer.AnalyzeInput(input.string(), &error)) continue;
    Report& report = analyzer.Finish();
    REQUIRE(aside.size() == report.events.size());
    if (report.events.empty()) continue;
    ++inputs_with_events;

    aside.Finish(report, "");
    size_t n = 0;
    REQUIRE(aside.ForEach([&](const Event& ev, uint32_t input_number, size_t) {
      REQUIRE(n < report.events.size());
      CHECK(input_number == 0);
      CHECK(Bytes(ev) == Bytes(report.events[n++]));
    }));
    CHECK(n == report.events.size());

    RelocateSources(&report, root);
    aside.Finish(report, root);
    CheckLimits limits;
    limits.max_lock_wait_ms = 0;
    limits.max_lock_wait_text = "0ms";
    limits.fail_on = RuleEngine(RuleSelection{}).Selected();
    CompareReports(report, limits, aside);
    const CheckResult c = EvaluateCheck(report, limits);
    long_waits += c.long_waits.size();
    failing += c.Failed();
    CHECK(CheckJsonText(c, report, -1) == DumpJson(CheckToJson(c, report), -1));
    CHECK(CheckJsonText(c, report, 2) == DumpJsonAt(CheckToJson(c, report), 2));

    // Everything known: a baseline of the run itself, by cause.
    const Baseline baseline = MakeBaseline(report, 0);
    limits.baseline = &baseline;
    limits.baseline_file = "lockgraph-baseline.json";
    limits.baseline_by_cause = true;
    CompareReports(report, limits, aside);
  }
  CHECK(inputs_with_events > 100);
  CHECK(long_waits > 100);
  CHECK(failing > 100);
}

TEST_CASE("check: a relation named later in the input is named in check's report", "[check]") {
  const std::string late = test::TempFile(test::kLateRelationName);
  PutAsideEvents aside;
  AnalyzeOptions options;
  options.collect_events = false;
  Analyzer analyzer(options, &aside);
  std::string error;
  REQUIRE(analyzer.AnalyzeInput(late, &error));
  Report& report = analyzer.Finish();
  CHECK(report.events.empty());
  aside.Finish(report, "");
  CheckLimits limits;
  limits.max_lock_wait_ms = 100;
  limits.max_lock_wait_text = "100ms";
  std::optional<CheckResult> c = DecideCheck(report, limits, aside);
  REQUIRE(c);
  // The keys the collected events give (the baseline's: gate/baseline.h).
  const Report collected = test::AnalyzeText(test::kLateRelationName);
  const CheckResult want = EvaluateCheck(collected, limits);
  REQUIRE(c->long_waits.size() == 2);
  REQUIRE(want.long_waits.size() == 2);
  for (size_t i = 0; i < 2; ++i) {
    const LongWait& w = c->long_waits[i];
    CHECK(w.key == want.long_waits[i].key);
    CHECK(c->event(w.event).lock_wait->lock.relation_name == "accounts");
  }
  std::unique_ptr<Emitter> e = FindEmitter("text");
  e->set_check(&*c);
  std::ostringstream out;
  REQUIRE(HandOverChecked(aside, report, *e, out));
  e->Write(report, out);
  CHECK(out.str().find("ExclusiveLock on tuple (0,3) of accounts") != std::string::npos);
  const std::string text = out.str();
  const std::string named = "for ExclusiveLock on tuple (0,3) of accounts";
  CHECK(text.find(named) != std::string::npos);
  CHECK(text.find(named, text.find(named) + 1) != std::string::npos);  // both waits
  CHECK(text.find("of 16385") == std::string::npos);
}

TEST_CASE("check: the long waits written one at a time read as the whole check object",
          "[check]") {
  CheckResult c;
  Report report;
  // Text that would pass for the long waits' hole if it were not escaped.
  c.broken = {"x \"\x01", "\"long_waits\": \"\x01\"", "\"long_waits\":\"\x01\""};
  c.has_baseline = true;
  c.stale = {"\x01"};
  c.event = [](size_t i) {
    Event ev;
    ev.source.file = "log " + std::to_string(i) + " \"\x01";
    ev.source.first_line = i + 1;
    return ev;
  };
  for (size_t n : {0, 1, 3}) {
    c.long_waits.clear();
    for (size_t i = 0; i < n; ++i)
      c.long_waits.push_back({i, "key \x01 " + std::to_string(i), 1.5 * double(i), i % 2 == 0});
    INFO(n << " long waits");
    CHECK(CheckJsonText(c, report, -1) == DumpJson(CheckToJson(c, report), -1));
    CHECK(CheckJsonText(c, report, 2) == DumpJsonAt(CheckToJson(c, report), 2));
    CHECK(CheckJsonText(c, report, 0) == DumpJsonAt(CheckToJson(c, report), 0));
  }
}

TEST_CASE("event codec: every kind of event, and cut bytes refused", "[codec]") {
  Event ev;
  ev.type = EventType::kWaitChanged;
  ev.engine = "postgresql";
  ev.time = "2026-12-02 09:00:00.100 UTC";
  ev.epoch_ms = -1;
  ev.time_zone_from = ZoneFrom::kOption;
  ev.source = {"a.log", 7, 9, "client"};
  ev.server = "host=db1";
  ev.pid = int64_t(1) << 40;
  ev.session.xid = UINT64_MAX;
  ev.session.query_id = INT64_MIN;
  ev.truncated = true;
  WaitChange& change = ev.wait_change.emplace();
  change.waiter.id = "4211";
  change.waiter.wait_age_ms = 1.5;
  change.waiter.holds.push_back({"RowExclusiveLock", {"relation", {{"relation", "16385", true}}, "t", "accounts"}});
  change.blocked_by = {"4302", ""};
  change.waited_ms = 0.25;
  change.previous_mode = "ShareLock";
  ev.unique_violation = UniqueViolation{"k", "(id)=(1)", std::string("a\0b", 3)};
  ev.snapshot = SnapshotInfo{"now", "pg_blocking_pids", 1, 2, 3, 4, 5, 6.5};
  ev.findings.push_back({"PG001", "name", Severity::kNote, "m", "h", {"e1", "e2"}, {"s"}});
  ev.signature = "sig";
  const std::string bytes = Bytes(ev);
  Event back;
  REQUIRE(DecodeEvent(bytes, &back));
  CHECK(Bytes(back) == bytes);
  CHECK(back.session.xid == UINT64_MAX);
  CHECK(back.session.query_id == INT64_MIN);
  CHECK(back.epoch_ms == -1);
  CHECK(back.unique_violation->statement == std::string("a\0b", 3));
  CHECK(back.wait_change->waiter.holds[0].lock.fields[0].numeric);
  CHECK(back.snapshot->poll_ms == 6.5);
  CHECK(back.findings[0].severity == Severity::kNote);
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    Event part;
    CHECK_FALSE(DecodeEvent(std::string_view(bytes).substr(0, cut), &part));
  }
  CHECK_FALSE(DecodeEvent(bytes + "x", &back));
}

}  // namespace lockgraph
