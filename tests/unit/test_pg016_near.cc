// PairNear and AnyNear (rules/postgresql/pg016_near.h) give what PG016's
// former double loop over every error and every lock event gave: the same
// errors, the same events in the same order, the same after-own-wait flag,
// per constraint; on random tables with unknown times, unknown pids, spans
// ending before they start, and times exactly at the window's edges.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "rules/postgresql/pg016_near.h"

namespace lockgraph {
namespace {

constexpr int64_t kNear = 60'000;

bool Near(const NearError& e, const NearSpan& s) {
  if (!e.ms || !s.first_ms || !s.last_ms) return false;
  return *e.ms >= *s.first_ms - kNear && *e.ms <= *s.last_ms + kNear;
}

// The loop PG016's Finish had, verbatim in effect.
std::map<std::string, NearGroup> Naive(const std::vector<NearError>& errors,
                                       const std::vector<NearSpan>& spans) {
  std::map<std::string, NearGroup> out;
  for (size_t i = 0; i < errors.size(); ++i)
    for (size_t j = 0; j < spans.size(); ++j) {
      if (!Near(errors[i], spans[j])) continue;
      NearGroup& g = out[std::string(errors[i].constraint)];
      if (g.errors.empty() || g.errors.back() != i) g.errors.push_back(i);
      bool seen = false;
      for (size_t k : g.spans) seen = seen || k == j;
      if (!seen) g.spans.push_back(j);
      if (!errors[i].pid.empty() && errors[i].pid == spans[j].pid) g.after_own_wait = true;
    }
  return out;
}

TEST_CASE("PairNear pairs errors and lock events as the double loop did", "[PG016][near]") {
  const std::vector<std::string> constraints = {"a_pkey", "b_key", "c_uq"};
  const std::vector<std::string> pids = {"", "101", "102", "103", "104"};
  size_t groups = 0, own = 0;
  for (uint32_t seed = 1; seed <= 400; ++seed) {
    std::mt19937 rng(seed);
    const int64_t spread = seed % 4 == 0 ? 30'000 : 3'600'000;  // dense or sparse in time
    auto time = [&]() -> std::optional<int64_t> {
      if (rng() % 15 == 0) return std::nullopt;
      if (rng() % 10 == 0) return 1'000'000 + kNear * int64_t(rng() % 8);  // window edges
      return 1'000'000 + int64_t(rng() % spread);
    };
    std::vector<NearError> errors(rng() % 60);
    for (NearError& e : errors) {
      e.ms = time();
      e.pid = pids[rng() % pids.size()];
      e.constraint = constraints[rng() % constraints.size()];
    }
    std::vector<NearSpan> spans(rng() % 60);
    for (NearSpan& s : spans) {
      s.first_ms = time();
      s.last_ms = rng() % 8 == 0 ? time() : (s.first_ms ? std::optional<int64_t>(*s.first_ms +
                                                                                 int64_t(rng() % 90'000))
                                                          : std::nullopt);
      s.pid = pids[rng() % pids.size()];
    }
    const auto expected = Naive(errors, spans);
    const auto got = PairNear(errors, spans, kNear);
    INFO("seed " << seed);
    REQUIRE(got.size() == expected.size());
    for (const auto& [constraint, g] : expected) {
      INFO("constraint " << constraint);
      REQUIRE(got.count(constraint) == 1);
      CHECK(got.at(constraint).errors == g.errors);
      CHECK(got.at(constraint).spans == g.spans);
      CHECK(got.at(constraint).after_own_wait == g.after_own_wait);
      ++groups;
      own += g.after_own_wait;
    }
    // AnyNear: some error of any constraint near the span.
    std::vector<int64_t> sorted;
    for (const NearError& e : errors)
      if (e.ms) sorted.push_back(*e.ms);
    std::sort(sorted.begin(), sorted.end());
    for (const NearSpan& s : spans) {
      bool any = false;
      for (const NearError& e : errors) any = any || Near(e, s);
      CHECK(AnyNear(sorted, s, kNear) == any);
    }
  }
  // The random cases covered both outcomes.
  CHECK(groups > 300);
  CHECK(own > 50);
  CHECK(own < groups);
}

TEST_CASE("PairNear: nothing near, nothing out", "[PG016][near]") {
  std::vector<NearError> errors = {{1'000'000, "1", "k"}, {std::nullopt, "2", "k"}};
  std::vector<NearSpan> spans = {{1'000'000 + kNear + 1, 2'000'000, "1"},
                                 {std::nullopt, 1'000'000, "1"},
                                 {1'000'000, std::nullopt, "1"}};
  CHECK(PairNear(errors, spans, kNear).empty());
  spans.push_back({1'000'000 + kNear, 1'000'000 + kNear, "9"});  // exactly at the edge
  const auto got = PairNear(errors, spans, kNear);
  REQUIRE(got.size() == 1);
  CHECK(got.at("k").errors == std::vector<size_t>{0});
  CHECK(got.at("k").spans == std::vector<size_t>{3});
  CHECK_FALSE(got.at("k").after_own_wait);
}

}  // namespace
}  // namespace lockgraph
