// MatchTimedWait reads a timed lock-wait message in two (head, then tail,
// parsers/postgresql/messages.h): it must read what the one regex of the
// whole message reads, kept here as the oracle, and ParseLockWaitMessage
// what that gives. On the messages of every input of samples/,
// tests/corpus/ and tests/golden/, and on made-up ones whose tags hold the
// tail's own words, newlines, "by rearranging queue order", or nothing.
#include <catch2/catch.hpp>
#include <re2/re2.h>

#include <random>
#include <string>
#include <vector>

#include "parsers/postgresql/messages.h"
#include "support.h"

using namespace lockgraph;

namespace {

// The regex ParseLockWaitMessage used before the split, whole, against
// MatchTimedWait; and ParseLockWaitMessage's fields where it matches.
void CheckAgainstWhole(const std::string& message) {
  static const RE2 kTimed(
      R"(process (\d+) (still waiting for|acquired|avoided deadlock for|)"
      R"(detected deadlock while waiting for|failed to acquire) (\S+) on (.+?))"
      R"((?: by rearranging queue order)? after (\d+)\.(\d+) ms(?: at character \d+)?)");
  std::string pid, verb, mode, tag, ms, frac;
  const bool whole = RE2::FullMatch(message, kTimed, &pid, &verb, &mode, &tag, &ms, &frac);
  const std::optional<TimedWaitParts> parts = MatchTimedWait(message);
  INFO(message);
  REQUIRE(parts.has_value() == whole);
  if (!whole) return;
  CHECK(parts->pid == pid);
  CHECK(parts->verb == verb);
  CHECK(parts->mode == mode);
  CHECK(parts->tag == tag);
  CHECK(parts->ms == ms);
  CHECK(parts->frac == frac);
  const std::optional<LockWaitMessage> m = ParseLockWaitMessage(message);
  REQUIRE(m);
  CHECK(m->pid == std::stoll(pid));
  CHECK(m->mode == mode);
  CHECK(m->tag == tag);
  REQUIRE(m->after_ms);
  CHECK(*m->after_ms == double(std::stoll(ms)) + double(std::stoll(frac)) / 1000.0);
}

std::vector<std::string> SampleMessages() {
  std::vector<std::string> out;
  for (const std::string& path : test::SampleInputs())
    for (const std::string& line : test::SplitLines(test::ReadFile(path))) {
      const size_t at = line.find("process ");
      if (at != std::string::npos && line.find(" ms", at) != std::string::npos)
        out.push_back(line.substr(at));
    }
  return out;
}

}  // namespace

TEST_CASE("the timed lock-wait message read in two parts reads as the whole regex",
          "[messages]") {
  const std::vector<std::string> real = SampleMessages();
  REQUIRE(real.size() > 50);
  for (const std::string& message : real) CheckAgainstWhole(message);

  const std::vector<std::string> verbs = {"still waiting for", "acquired", "avoided deadlock for",
                                          "detected deadlock while waiting for",
                                          "failed to acquire", "waiting for"};
  const std::vector<std::string> pieces = {
      "relation 5 of database 1", " after 1.500 ms", " by rearranging queue order", " on ",
      "tuple (0,1)", "\n", " ", "", "x", " after 12.3 ms at character 7", " ms", "after 2.000 ms",
      " at character 9", "transaction 77"};
  std::mt19937 rng(42);
  std::uniform_int_distribution<size_t> verb(0, verbs.size() - 1), piece(0, pieces.size() - 1),
      count(0, 4);
  for (int i = 0; i < 20000; ++i) {
    std::string m = "process " + std::to_string(i) + " " + verbs[verb(rng)] + " ShareLock on ";
    for (size_t n = count(rng); n > 0; --n) m += pieces[piece(rng)];
    m += pieces[piece(rng)];
    for (size_t n = count(rng); n > 0; --n) m += pieces[piece(rng)];
    CheckAgainstWhole(m);
  }
}
