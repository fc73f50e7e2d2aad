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

// Hands each event to two BaselineWaits.
class Both : public EventStream {
 public:
  Both(BaselineWaits* a, BaselineWaits* b) : a_(a), b_(b) {}
  void OnInputStart(size_t input) override { a_->OnInputStart(input), b_->OnInputStart(input); }
  void OnEvent(const Event& ev) override { a_->OnEvent(ev), b_->OnEvent(ev); }

 private:
  BaselineWaits *a_, *b_;
};

// The baseline files of `inputs` with --min-lock-wait 0 and 1s, from one
// analysis: as `lockgraph baseline` makes them when `streamed`, else from
// the collected events. Empty when an input cannot be read.
std::vector<std::string> BaselinesOf(const std::vector<std::string>& inputs, bool streamed) {
  BaselineWaits all(0), long_ones(1000);
  Both stream(&all, &long_ones);
  AnalyzeOptions options;
  options.collect_events = !streamed;
  Analyzer analyzer(options, streamed ? &stream : nullptr);
  for (const std::string& input : inputs) {
    std::string error;
    if (!analyzer.AnalyzeInput(input, &error)) return {};
  }
  const Report& report = analyzer.Finish();
  if (streamed) {
    CHECK(report.events.empty());
    return {BaselineToJson(MakeBaseline(report, all.Entries(report))),
            BaselineToJson(MakeBaseline(report, long_ones.Entries(report)))};
  }
  return {BaselineToJson(MakeBaseline(report, 0)), BaselineToJson(MakeBaseline(report, 1000))};
}

TEST_CASE("baseline waits taken as events are made equal those of the collected events",
          "[baseline]") {
  size_t with_waits = 0, with_long_waits = 0;
  for (const std::string& input : test::SampleInputs()) {
    INFO("input " << input);
    const std::vector<std::string> streamed = BaselinesOf({input}, true);
    if (streamed.empty()) continue;
    CHECK(streamed == BaselinesOf({input}, false));
    const std::string some = "\"lock_waits\": [\n    {";
    if (streamed[0].find(some) != std::string::npos) ++with_waits;
    if (streamed[1].find(some) != std::string::npos) ++with_long_waits;
  }
  CHECK(with_waits > 20);
  CHECK(with_long_waits > 0);
  CHECK(with_long_waits < with_waits);
}

TEST_CASE("a baseline wait names a relation a later record names", "[baseline]") {
  const std::string log = test::TempFile(test::kLateRelationName);
  const std::vector<std::string> baselines = BaselinesOf({log}, true);
  REQUIRE(baselines.size() == 2);
  CHECK(baselines == BaselinesOf({log}, false));
  const std::string& streamed = baselines[0];
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
