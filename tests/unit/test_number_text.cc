// AppendZeroPadded and AppendFixed (src/text/number_text.h) write what
// snprintf writes with "%0*lld" and "%.*f": on edge values, on random ones,
// and on the halves where rounding could go either way.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>

#include "text/number_text.h"

using namespace lockgraph;

namespace {

std::string Padded(long long v, int width) {
  std::string out;
  AppendZeroPadded(&out, v, width);
  return out;
}

std::string PrintfPadded(long long v, int width) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%0*lld", width, v);
  return buf;
}

std::string Fixed(double v, int decimals) {
  std::string out;
  AppendFixed(&out, v, decimals);
  return out;
}

std::string PrintfFixed(double v, int decimals) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace

TEST_CASE("AppendZeroPadded writes what %0*lld writes", "[number_text]") {
  for (long long v : {0LL, 1LL, -1LL, 5LL, -5LL, 59LL, 2026LL, 999999LL, 1000000LL, -123456LL,
                      std::numeric_limits<long long>::max(), std::numeric_limits<long long>::min()})
    for (int width = 0; width <= 8; ++width) CHECK(Padded(v, width) == PrintfPadded(v, width));
  std::mt19937_64 rng(3);
  for (int i = 0; i < 20000; ++i) {
    const long long v = static_cast<long long>(rng()) >> (rng() % 60);
    const int width = int(rng() % 9);
    REQUIRE(Padded(v, width) == PrintfPadded(v, width));
  }
}

TEST_CASE("AppendFixed writes what %.*f writes", "[number_text]") {
  for (double v : {0.0, -0.0, 0.05, 0.15, 0.25, 0.35, 1.45, 2.5, 1e300, -1e-300, 223.755,
                   13555.814, 1000.0005, std::numeric_limits<double>::max(),
                   std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                   std::nan("")})
    for (int decimals = 0; decimals <= 3; ++decimals)
      CHECK(Fixed(v, decimals) == PrintfFixed(v, decimals));
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> ms(0.0, 200000.0);
  for (int i = 0; i < 20000; ++i) {
    // Three decimals, as log_lock_waits writes them: halves at the first.
    const double v = std::round(ms(rng) * 1000.0) / 1000.0 + (i % 7 == 0 ? 0.05 : 0.0);
    REQUIRE(Fixed(v, 1) == PrintfFixed(v, 1));
  }
}
