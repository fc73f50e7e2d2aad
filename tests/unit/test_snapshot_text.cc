// SnapshotText::Duration (src/emit/snapshot_text.h): ages of transactions and
// waits as people read them, whatever a snapshot file claims.
#include <catch2/catch.hpp>

#include "emit/snapshot_text.h"

namespace lockgraph {
namespace {

TEST_CASE("snapshot durations read as ms, s, min and h", "[snapshot]") {
  CHECK(SnapshotText::Duration(12) == "12 ms");
  CHECK(SnapshotText::Duration(1500) == "1.5 s");
  CHECK(SnapshotText::Duration(125000) == "2 min 05 s");
  CHECK(SnapshotText::Duration(3 * 3600000.0 + 7 * 60000.0) == "3 h 07 min");
}

TEST_CASE("a forged age of thousands of years is printed, not overflowed", "[snapshot]") {
  // fuzz_pglocks_csv: an xact_start far in the past made int(ms / 60000)
  // overflow (UBSan: 2.2e9 is outside the range of int).
  CHECK(SnapshotText::Duration(1.3e14) == "36111111 h 06 min");
  // Beyond the buffer: cut by snprintf, never written past it.
  const std::string huge = SnapshotText::Duration(1e300);
  CHECK(huge.size() == 47);
  CHECK(huge.rfind("2777777", 0) == 0);  // 1e300 ms / 3,600,000
}

}  // namespace
}  // namespace lockgraph
