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
  // Every ASCII byte, alone and between plain text (the escaping of ASCII
  // text is JsonText's own; UTF-8 goes to nlohmann's).
  std::string all;
  for (int c = 0; c < 0x80; ++c) {
    const std::string one(1, char(c));
    CHECK(Written(json(one), -1, 0) == DumpJson(json(one), -1));
    all += "x" + one;
  }
  CHECK(Written(json(all), -1, 0) == DumpJson(json(all), -1));
  CHECK(Written(json("\"\t\n\x1f" + all + "\xc3\xa9\x01"), -1, 0) ==
        DumpJson(json("\"\t\n\x1f" + all + "\xc3\xa9\x01"), -1));
  CHECK(Written(json::array(), -1, 0) == "[]");
}

TEST_CASE("JsonText: every byte at every place of a string 16 bytes a step reads", "[json]") {
  // Escaped() classifies 16 bytes at a time: each byte value at each place
  // of strings of 15 to 49 bytes, so that it falls in a step and in the tail.
  for (size_t size : {15u, 16u, 17u, 31u, 32u, 33u, 49u})
    for (int c = 1; c < 0x100; ++c)
      for (size_t at = 0; at < size; at += (size > 20 ? 7 : 1)) {
        std::string s(size, 'a');
        s[at] = char(c);
        INFO("size " << size << ", byte " << c << " at " << at);
        REQUIRE(Written(json(s), -1, 0) == DumpJson(json(s), -1));
      }
}

TEST_CASE("JsonText: a byte to escape at every place of a short key or value", "[json]") {
  // ShortPlain() copies a key or value of up to 96 bytes, then checks it 16
  // bytes a step, the bytes past its end left out: each size, each place.
  for (size_t size = 1; size <= 97; ++size)
    for (int c : {0x00, 0x1f, int('"'), int('\\'), 0x7f, 0x80, 0xff, int(' '), int('~')})
      for (size_t at = 0; at < size; ++at) {
        std::string s(size, 'k');
        s[at] = char(c);
        const json j = {{s, s}, {"after", s}};
        INFO("size " << size << ", byte " << c << " at " << at);
        REQUIRE(Written(j, 2, 0) == DumpJsonAt(j, 0));
        REQUIRE(Written(j, -1, 0) == DumpJson(j, -1));
      }
}

TEST_CASE("JsonText: short keys and values in one append, and past its limits", "[json]") {
  // Keys and strings of up to 96 plain bytes, and numbers, go out with
  // their separator in one append; longer or escaped ones, and lines
  // indented deeper than 64 spaces, the long way. Both ways, every layout.
  json j = json::object();
  for (size_t size : {0u, 1u, 95u, 96u, 97u, 150u}) {
    for (int c : {int('a'), int('"'), int('\\'), int('\n'), 0x7f, 0xc3}) {
      std::string s(size, 'k');
      if (size > 0) s[size / 2] = char(c);
      j[s] = {{s, s}, {"n", -int64_t(size)}, {"u", uint64_t(size)}, {"d", 0.5 + double(size)}};
    }
  }
  j["not finite"] = std::nan("");
  // 40 levels: from the 31st on (depth 4) the indentation passes 64 spaces.
  json deep = {{"leaf", "x"}, {"n", 1}, {"u", uint64_t(2)}, {"d", 2.5}, {"nan", std::nan("")}, {"a", {1, "s"}}};
  for (int level = 0; level < 40; ++level) deep = {{"k" + std::to_string(level), deep}, {"v", level}};
  j["deep"] = deep;
  for (unsigned depth : {0u, 4u, 60u}) {
    INFO("depth " << depth);
    CHECK(Written(j, 2, depth) == DumpJsonAt(j, depth));
  }
  CHECK(Written(j, -1, 0) == DumpJson(j, -1));
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

TEST_CASE("EventJsonText: keys that would come twice go through the tree", "[json]") {
  // A deadlock and a lock wait on one event share "context" and
  // "statement"; two attributes of a process share a name. The tree keeps
  // each key once, in its first place with its last value; so must the text.
  Event ev;
  Deadlock d;
  Participant p;
  p.id = "process1";
  p.attributes = {{"status", "suspended", false}, {"trancount", "2", false},
                  {"status", "running", false}};
  d.processes = {p};
  d.victims = {"process1"};
  d.statement = "UPDATE a SET n = 1;";
  d.context = {ContextFrame{}};
  d.context[0].text = "first";
  ev.deadlock = d;
  LockWait lw;
  lw.waiter = "7";
  lw.statement = "UPDATE b SET n = \"2\";";
  lw.context = {ContextFrame{}};
  lw.context[0].text = "second";
  ev.lock_wait = lw;
  for (int indent : {-1, 2}) {
    const std::string text = EventJsonText(ev, indent, 4);
    CHECK(text == (indent < 0 ? DumpJson(EventToJson(ev), -1) : DumpJsonAt(EventToJson(ev), 4)));
    const json back = json::parse(text);
    CHECK(back["statement"] == "UPDATE b SET n = \"2\";");
    CHECK(back["context"][0]["text"] == "second");
    CHECK(back["processes"][0]["attributes"] == json({{"status", "running"}, {"trancount", "2"}}));
  }
  ev.lock_wait.reset();  // one kind of fields: written key by key
  const std::string text = EventJsonText(ev, -1, 0);
  CHECK(text == DumpJson(EventToJson(ev), -1));
  CHECK(text.find(R"("attributes":{"status":"running","trancount":"2"})") != std::string::npos);
}

}  // namespace lockgraph
