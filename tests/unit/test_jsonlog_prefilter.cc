// The jsonlog fast path (parsers/postgresql/jsonlog_prefilter.h): which
// lines it reads without a parser, and which it must leave to nlohmann.
#include <catch2/catch.hpp>

#include "parsers/postgresql/jsonlog_prefilter.h"

namespace lockgraph {
namespace {

TEST_CASE("jsonlog prefilter reads the message of a plain record", "[jsonlog]") {
  // PostgreSQL 15.18 jsonlog (samples/postgresql), a duration record.
  const auto m = PlainJsonlogMessage(
      R"({"timestamp":"2026-12-01 10:00:00.123 UTC","user":"app","dbname":"shop","pid":4242,)"
      R"("error_severity":"LOG","message":"duration: 0.051 ms","backend_type":"client backend"})");
  REQUIRE(m);
  CHECK(*m == "duration: 0.051 ms");
  // CloudNativePG: the record object carries log_time and message.
  const auto c = PlainJsonlogMessage(
      R"({"level":"info","ts":"2026-12-01T10:00:00Z","msg":"record","record":{"log_time":"2026-12-01 10:00:00.1 UTC","message":"checkpoint starting: time"}})");
  REQUIRE(c);
  CHECK(*c == "checkpoint starting: time");
  CHECK(PlainJsonlogMessage(R"(  {"timestamp":"t", "message" : "spaced"}  )").value() == "spaced");
}

TEST_CASE("jsonlog prefilter leaves anything unusual to the parser", "[jsonlog]") {
  // An escape in the message: raw bytes are not the text.
  CHECK_FALSE(PlainJsonlogMessage(R"({"timestamp":"t","message":"a \"quoted\" word"})"));
  // The bytes "message" twice (here the end of a user name ending in an
  // escaped quote and "message"): only the parser knows which is the key.
  CHECK_FALSE(PlainJsonlogMessage(
      R"({"timestamp":"t","user":"ab\"message","message":"deadlock detected"})"));
  // A quoted "message" inside a value is escaped on both sides: one key.
  CHECK(PlainJsonlogMessage(
            R"({"timestamp":"t","user":"\"message\":\"x\"","message":"deadlock detected"})")
            .value() == "deadlock detected");
  // Cut at end of file, not an object, no timestamp before the message.
  CHECK_FALSE(PlainJsonlogMessage(R"({"timestamp":"t","message":"duration: 1 ms")"));
  CHECK_FALSE(PlainJsonlogMessage(R"(["timestamp","message"])"));
  CHECK_FALSE(PlainJsonlogMessage(R"({"message":"m","timestamp":"t"})"));
  // A message that is not a string, a missing closing quote.
  CHECK_FALSE(PlainJsonlogMessage(R"({"timestamp":"t","message":42})"));
  CHECK_FALSE(PlainJsonlogMessage(R"({"timestamp":"t","message":"open})"));
  CHECK_FALSE(PlainJsonlogMessage(""));
}

}  // namespace
}  // namespace lockgraph
