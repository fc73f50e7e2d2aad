// EventSpool (src/emit/event_spool.h): texts come back in log order, from
// memory and from the temporary file alike.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "emit/event_spool.h"

namespace lockgraph {
namespace {

std::vector<std::string> Sorted(EventSpool& spool) {
  std::vector<std::string> out;
  REQUIRE(spool.ForEachSorted([&](std::string_view t) { out.emplace_back(t); }));
  return out;
}

TEST_CASE("event spool sorts by input, then first line, then arrival", "[spool]") {
  EventSpool spool(1 << 20);
  spool.Add(1, 5, "b5");
  spool.Add(0, 9, "a9");
  spool.Add(0, 3, "a3-first");
  spool.Add(0, 3, "a3-second");
  spool.Add(1, 1, "b1");
  CHECK_FALSE(spool.spilled());
  CHECK(Sorted(spool) == std::vector<std::string>{"a3-first", "a3-second", "a9", "b1", "b5"});
}

TEST_CASE("event spool spills past its budget and reads every text back", "[spool]") {
  EventSpool spool(64);  // a few texts each: most go to the file
  std::vector<std::string> expected;
  for (int i = 999; i >= 0; --i) spool.Add(0, uint64_t(i), "event " + std::to_string(i) + "\n");
  for (int i = 0; i < 1000; ++i) expected.push_back("event " + std::to_string(i) + "\n");
  CHECK(spool.spilled());
  CHECK(spool.size() == 1000);
  CHECK(Sorted(spool) == expected);
  CHECK(Sorted(spool) == expected);  // and again: reading does not consume
}

TEST_CASE("event spool of nothing writes nothing", "[spool]") {
  EventSpool spool;
  CHECK(Sorted(spool).empty());
}

TEST_CASE("event spool reads any text back by index, spilled or not", "[spool]") {
  EventSpool spool(64);
  for (int i = 99; i >= 0; --i) spool.Add(0, uint64_t(i), "event " + std::to_string(i) + "\n");
  REQUIRE(spool.spilled());
  std::vector<uint32_t> order = spool.SortedOrder();
  REQUIRE(order.size() == 100);
  CHECK(order.front() == 99);  // added last, first in the log
  CHECK(order.back() == 0);
  std::string text;
  for (uint32_t i : {0u, 99u, 50u, 98u}) {  // from the file and from memory, out of order
    REQUIRE(spool.Read(i, &text));
    CHECK(text == "event " + std::to_string(99 - i) + "\n");
  }
  CHECK_FALSE(spool.Read(100, &text));
  CHECK(Sorted(spool).front() == "event 0\n");  // reading by index leaves the order alone
}

}  // namespace
}  // namespace lockgraph
