// JsonText and EventJsonText write what nlohmann::json writes, byte for
// byte: every kind of value, escapes, invalid UTF-8, both layouts, and the
// events of the pg_locks samples and goldens (issue 20).
#include <catch2/catch.hpp>

#include "emit/event_json.h"
#include "emit/json_text.h"
#include "support.h"

namespace lockgraph {
namespace {

using json = nlohmann::ordered_json;

std::string Written(const json& j, int indent, unsigned depth) {
  std::string out;
  JsonText w(&out, indent, depth);
  w.Value(j);
  return out;
}

}  // namespace

TEST_CASE("JsonText lays out every kind of value as nlohmann's dump does", "[json]") {
  json j = json::object();
  j["empty_object"] = json::object();
  j["empty_array"] = json::array();
  j["plain"] = "UPDATE t SET n = n + 1 WHERE id = 9;";
  j["escapes"] = "a \"quoted\" back\\slash\ttab\nnewline \x01 \x7f";
  j["utf8"] = "Verklemmung \xc2\xbb" "accounts\xc2\xab";
  j["invalid_utf8"] = "bad \xff\xfe byte";
  j["empty"] = "";
  j["ints"] = {0, -1, int64_t(-9223372036854775807LL - 1), uint64_t(18446744073709551615ULL)};
  j["doubles"] = {0.1, 5.0, 1e300, -0.0, 1234.5678, 2.5e-7, std::nan("")};
  j["bools"] = {true, false, nullptr};
  j["nested"] = {{"a", {{"b", json::array({json::object(), json::array({1})})}}}};
  for (unsigned depth : {0u, 4u}) {
    INFO("depth " << depth);
    CHECK(Written(j, 2, depth) == DumpJsonAt(j, depth));
  }
  CHECK(Written(j, -1, 0) == DumpJson(j, -1));
  CHECK(Written(json::object(), 2, 4) == "{}");
  CHECK(Written(json::array(), -1, 0) == "[]");
}

TEST_CASE("EventJsonText is DumpJsonAt(EventToJson) for snapshot events and others", "[json]") {
  const std::string samples = std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/";
  const std::string golden = std::string(LOCKGRAPH_SAMPLES_DIR) + "/../tests/golden/";
  size_t chains = 0, cycles = 0, others = 0;
  for (const std::string& file :
       {samples + "snapshots/snapshot.csv", samples + "snapshots/pg_locks.csv",
        samples + "snapshots/snapshot.json", golden + "pglocks-hostile-text/input.csv",
        samples + "scenarios.log"}) {
    INFO(file);
    Report r = test::AnalyzeText(test::ReadFile(file));
    REQUIRE_FALSE(r.events.empty());
    for (const Event& ev : r.events) {
      CHECK(EventJsonText(ev, 2, 4) == DumpJsonAt(EventToJson(ev), 4));
      CHECK(EventJsonText(ev, -1, 0) == DumpJson(EventToJson(ev), -1));
      chains += bool(ev.chain), cycles += bool(ev.cycle), others += !ev.chain && !ev.cycle;
    }
  }
  CHECK(chains >= 4);
  CHECK(cycles >= 1);
  CHECK(others > 100);
}

TEST_CASE("EventJsonText: a lock whose field names collide goes through the tree", "[json]") {
  Event ev;
  ev.type = EventType::kChain;
  BlockingTree t;
  Backend root;
  root.id = "1";
  Backend waiter;
  waiter.id = "prepared 3/7";
  waiter.wait_mode = "ExclusiveLock";
  waiter.wait_lock.type = "advisory";
  // A field named "type" replaces the type, and a repeated one its first
  // value, in the tree: the text must say the same.
  waiter.wait_lock.fields = {{"type", "12", true}, {"objid", "x", false}, {"objid", "7", true}};
  waiter.xact_age_ms = 1234.5678;
  waiter.session.xid = 5;
  t.members = {{root, 0}, {waiter, 1}};
  WaitEdge e;
  e.waiter = waiter.id;
  e.blocker = "1";
  e.lock = waiter.wait_lock;
  e.derived = true;
  t.edges = {e};
  ev.chain = t;
  CHECK(EventJsonText(ev, 2, 4) == DumpJsonAt(EventToJson(ev), 4));
  CHECK(EventJsonText(ev, -1, 0) == DumpJson(EventToJson(ev), -1));
}

}  // namespace lockgraph
