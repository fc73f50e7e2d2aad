// `lockgraph baseline` keeps no events: BaselineWaits (src/gate/
// baseline_waits.h) takes each lock wait as it is made. The baseline must be
// the one MakeBaseline gives from the collected events, on every sample, and
// name a relation a later record of the input names.
#include <catch2/catch.hpp>

#include <string>

#include "app/analyzer.h"
#include "gate/baseline.h"
#include "gate/baseline_waits.h"
#include "support.h"

namespace lockgraph {
namespace {

class ToWaits : public EventStream {
 public:
  explicit ToWaits(BaselineWaits* waits) : waits_(waits) {}
  void OnInputStart(size_t input) override { input_ = uint32_t(input); }
  void OnEvent(const Event& ev) override { waits_->Add(ev, {input_, ev.source.first_line, seq_++}, true); }

 private:
  BaselineWaits* waits_;
  uint32_t input_ = 0;
  uint64_t seq_ = 0;
};

// The baseline file of `inputs`: as `lockgraph baseline` makes it when
// `streamed`, else from the collected events. False when an input cannot be
// read.
bool BaselineOf(const std::vector<std::string>& inputs, double min_wait_ms, bool streamed,
                std::string* json) {
  BaselineWaits waits(min_wait_ms);
  ToWaits stream(&waits);
  AnalyzeOptions options;
  options.collect_events = !streamed;
  Analyzer analyzer(options, streamed ? &stream : nullptr);
  for (const std::string& input : inputs) {
    std::string error;
    if (!analyzer.AnalyzeInput(input, &error)) return false;
  }
  const Report& report = analyzer.Finish();
  if (streamed) CHECK(report.events.empty());
  *json = BaselineToJson(streamed ? MakeBaseline(report, waits.Entries(report))
                                  : MakeBaseline(report, min_wait_ms));
  return true;
}

TEST_CASE("baseline waits taken as events are made equal those of the collected events",
          "[baseline]") {
  size_t with_waits = 0;
  for (const std::string& input : test::SampleInputs()) {
    INFO("input " << input);
    std::string streamed, collected;
    if (!BaselineOf({input}, 0, true, &streamed)) continue;
    REQUIRE(BaselineOf({input}, 0, false, &collected));
    CHECK(streamed == collected);
    if (streamed.find("\"lock_waits\": [\n    {") != std::string::npos) ++with_waits;
    REQUIRE(BaselineOf({input}, 1000, true, &streamed));
    REQUIRE(BaselineOf({input}, 1000, false, &collected));
    CHECK(streamed == collected);
  }
  CHECK(with_waits > 20);
}

TEST_CASE("a baseline wait names a relation a later record names", "[baseline]") {
  // The first wait's tuple lock is named only by the second wait's CONTEXT.
  const std::string log = test::TempFile(
      "2026-12-02 10:00:00.100 UTC [100] LOG:  process 100 still waiting for ExclusiveLock on tuple (0,3) of relation 16385 of database 16384 after 100.000 ms\n"
      "2026-12-02 10:00:00.100 UTC [100] DETAIL:  Process holding the lock: 200. Wait queue: 100.\n"
      "2026-12-02 10:00:00.100 UTC [100] STATEMENT:  UPDATE accounts SET balance = 1 WHERE id = 3;\n"
      "2026-12-02 10:00:00.500 UTC [100] LOG:  process 100 acquired ExclusiveLock on tuple (0,3) of relation 16385 of database 16384 after 500.000 ms\n"
      "2026-12-02 10:00:01.100 UTC [300] LOG:  process 300 still waiting for ExclusiveLock on tuple (0,3) of relation 16385 of database 16384 after 100.000 ms\n"
      "2026-12-02 10:00:01.100 UTC [300] DETAIL:  Process holding the lock: 400. Wait queue: 300.\n"
      "2026-12-02 10:00:01.100 UTC [300] CONTEXT:  while locking tuple (0,3) in relation \"accounts\"\n"
      "2026-12-02 10:00:01.100 UTC [300] STATEMENT:  UPDATE accounts SET balance = 2 WHERE id = 3;\n"
      "2026-12-02 10:00:01.500 UTC [300] LOG:  process 300 acquired ExclusiveLock on tuple (0,3) of relation 16385 of database 16384 after 500.000 ms\n");
  std::string streamed, collected;
  REQUIRE(BaselineOf({log}, 0, true, &streamed));
  REQUIRE(BaselineOf({log}, 0, false, &collected));
  CHECK(streamed == collected);
  // Both waits have one key, named.
  CHECK(streamed.find(
            "\"what\": \"ExclusiveLock on tuple of accounts: update accounts set balance = ? where id = ?\"") !=
        std::string::npos);
  CHECK(streamed.find("16385") == std::string::npos);
  CHECK(streamed.find("\"key\"") == streamed.rfind("\"key\""));
}

}  // namespace
}  // namespace lockgraph
