// Relation names over a whole input (analysis/relation_map.h): a name that a
// later record teaches names the earlier events too, and the summary lists
// the map. On the real scenarios log, whose lock waits come before the
// deadlock records that name their tables.
#include <catch2/catch.hpp>

#include <map>

#include "analysis/relation_map.h"
#include "app/analyzer.h"

namespace lockgraph {

TEST_CASE("relation names learned later name earlier events, and the summary lists them", "[relations]") {
  // What a streaming output sees: names from the record that taught them on.
  struct Count : EventStream {
    size_t named = 0;
    void OnEvent(const Event& ev) override {
      if (ev.lock_wait && !ev.lock_wait->lock.relation_name.empty()) ++named;
      if (ev.deadlock)
        for (const WaitEdge& e : ev.deadlock->edges) named += !e.lock.relation_name.empty();
    }
  } streamed;
  AnalyzeOptions options;
  Analyzer analyzer(options, &streamed);
  std::string error;
  REQUIRE(analyzer.AnalyzeInput(std::string(LOCKGRAPH_SOURCE_DIR) + "/samples/postgresql/scenarios.log", &error));
  Report r = std::move(analyzer.Finish());
  REQUIRE(!r.summary.relation_names.empty());
  std::map<std::string, std::string> names;
  for (const RelationName& n : r.summary.relation_names) {
    CHECK(n.file.find("scenarios.log") != std::string::npos);
    CHECK(!n.relation.empty());
    CHECK(!n.name.empty());
    names[n.database + "/" + n.relation] = n.name;
  }
  // Every target whose OID the map knows shows the name, wherever it is.
  size_t named = 0, waits_named = 0;
  auto check = [&](const LockTarget& t, bool wait) {
    std::string_view rel = t.Field("relation");
    if (rel.empty()) return;
    auto it = names.find(std::string(t.Field("database")) + "/" + std::string(rel));
    if (it == names.end()) return;
    CHECK(t.relation_name == it->second);
    ++named;
    waits_named += wait;
  };
  for (const Event& ev : r.events) {
    if (ev.deadlock)
      for (const WaitEdge& e : ev.deadlock->edges) check(e.lock, false);
    if (ev.lock_wait) check(ev.lock_wait->lock, true);
  }
  CHECK(waits_named > 0);
  // One lock wait of this log comes before the record that names its table.
  CHECK(named == streamed.named + 1);
}

TEST_CASE("an OID named twice differently stays a number", "[relations]") {
  RelationMap map;
  auto event_with = [](const std::string& name) {
    Event ev;
    LockWait w;
    w.lock.type = "relation";
    w.lock.fields = {{"database", "5", true}, {"relation", "16411", true}};
    w.lock.relation_name = name;
    ev.lock_wait = w;
    return ev;
  };
  map.Learn(event_with("accounts"), 0, "a.log");
  Event unnamed = event_with("");
  map.Resolve(&unnamed, 0);
  CHECK(unnamed.lock_wait->lock.relation_name == "accounts");
  Event other_input = event_with("");
  map.Resolve(&other_input, 1);  // another input: another server, maybe
  CHECK(other_input.lock_wait->lock.relation_name.empty());
  map.Learn(event_with("orders"), 0, "a.log");
  Event again = event_with("");
  map.Resolve(&again, 0);
  CHECK(again.lock_wait->lock.relation_name.empty());
  CHECK(map.Entries().empty());
}

}  // namespace lockgraph
