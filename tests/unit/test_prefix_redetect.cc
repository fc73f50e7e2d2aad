// PrefixRedetector (parsers/postgresql/prefix_redetect.h): a prefix sniffed
// on a fresh server's startup lines is replaced when a session's line does
// not fit it; nothing else changes it.
#include <catch2/catch.hpp>

#include <string>

#include "parsers/postgresql/prefix_redetect.h"

namespace lockgraph {
namespace {

// The startup lines of samples/postgresql/scenarios.log, then a session's line.
const char* const kStartup[] = {
    "2026-12-02 10:15:18.556 UTC [6497] LOG:  starting PostgreSQL 15.18",
    "2026-12-02 10:15:18.556 UTC [6497] LOG:  listening on IPv4 address \"127.0.0.1\", port 54523",
    "2026-12-02 10:15:18.565 UTC [6497] LOG:  database system is ready to accept connections",
};
const char* const kSession =
    "2026-12-02 10:15:19.504 UTC [6544] postgres@lockgraph/lg_two_way_B ERROR:  deadlock detected";

std::unique_ptr<PrefixMatcher> Matcher(const std::string& prefix) {
  std::string error;
  auto m = PrefixMatcher::Compile(prefix, &error);
  REQUIRE(m);
  return m;
}

TEST_CASE("prefix redetect: a session's line after startup lines gives the whole prefix",
          "[prefix_redetect]") {
  PrefixRedetector r(true);
  for (const char* line : kStartup) r.Fits(line);
  auto current = Matcher("%m [%p] ");
  std::string note;
  std::unique_ptr<PrefixMatcher> m = r.Retry(kSession, *current, &note);
  REQUIRE(m);
  CHECK(m->prefix() == "%m [%p] %q%u@%d/%a ");
  CHECK(note == "log_line_prefix '%m [%p] %q%u@%d/%a ' from this line on: '%m [%p] ', detected "
                "on the first lines (startup messages only?), does not fit it");
  PrefixedLine out;
  SessionInfo session;
  REQUIRE(m->Match(kSession, &out, &session));
  CHECK(session.database == "lockgraph");
  CHECK(session.application == "lg_two_way_B");
}

TEST_CASE("prefix redetect: silent when the prefix was given, is the fallback, or the line has "
          "no label", "[prefix_redetect]") {
  std::string note;
  auto current = Matcher("%m [%p] ");
  PrefixRedetector given(false);
  for (const char* line : kStartup) given.Fits(line);
  CHECK_FALSE(given.Retry(kSession, *current, &note));
  PrefixRedetector fallback(true);
  for (const char* line : kStartup) fallback.Fits(line);
  CHECK_FALSE(fallback.Retry(kSession, *Matcher("%*"), &note));
  PrefixRedetector plain(true);
  for (const char* line : kStartup) plain.Fits(line);
  CHECK_FALSE(plain.Retry("Traceback (most recent call last):", *current, &note));
  CHECK_FALSE(plain.Retry("\tProcess 6531: UPDATE accounts SET balance = 1", *current, &note));
  CHECK(note.empty());
  // Lines without a label took no try: the session's line still can.
  CHECK(plain.Retry(kSession, *current, &note));
}

TEST_CASE("prefix redetect: at most 32 tries an input", "[prefix_redetect]") {
  PrefixRedetector r(true);
  for (const char* line : kStartup) r.Fits(line);
  auto current = Matcher("%m [%p] ");
  std::string note;
  // A labelled line that no known prefix fits takes a try and changes nothing.
  for (int i = 0; i < 32; ++i) CHECK_FALSE(r.Retry("<<garbage>> ERROR:  no prefix here", *current, &note));
  CHECK_FALSE(r.Retry(kSession, *current, &note));
}

}  // namespace
}  // namespace lockgraph
