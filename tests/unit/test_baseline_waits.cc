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

// The baseline file of `inputs`: as `lockgraph baseline` makes it when
// `streamed`, else from the collected events. False when an input cannot be
// read.
bool BaselineOf(const std::vector<std::string>& inputs, double min_wait_ms, bool streamed,
                std::string* json) {
  BaselineWaits waits(min_wait_ms);
  AnalyzeOptions options;
  options.collect_events = !streamed;
  Analyzer analyzer(options, streamed ? &waits : nullptr);
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
  const std::string log = test::TempFile(test::kLateRelationName);
  std::string streamed, collected;
  REQUIRE(BaselineOf({log}, 0, true, &streamed));
  REQUIRE(BaselineOf({log}, 0, false, &collected));
  CHECK(streamed == collected);
  // Each wait's key and description name the relation, the first's too.
  CHECK(streamed.find(
            "\"what\": \"ExclusiveLock on tuple of accounts: update accounts set balance = ? where id = ?\"") !=
        std::string::npos);
  CHECK(streamed.find(
            "\"what\": \"ExclusiveLock on tuple of accounts: select * from accounts where id = ? for update\"") !=
        std::string::npos);
  CHECK(streamed.find("16385") == std::string::npos);
}

}  // namespace
}  // namespace lockgraph
