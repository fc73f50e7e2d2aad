// See log_time.h.
#include "analysis/log_time.h"

#include <cctype>

namespace lockgraph {
namespace {

// Reads exactly `n` digits at s[*i].
std::optional<int> Digits(std::string_view s, size_t* i, size_t n) {
  if (*i + n > s.size()) return std::nullopt;
  int v = 0;
  for (size_t k = 0; k < n; ++k) {
    char c = s[*i + k];
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  *i += n;
  return v;
}

bool Expect(std::string_view s, size_t* i, char c) {
  if (*i >= s.size() || s[*i] != c) return false;
  ++*i;
  return true;
}

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
// days_from_civil).
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

// "1733134519" or "1733134519.504" (%n).
std::optional<int64_t> EpochMs(std::string_view s) {
  size_t i = 0;
  int64_t secs = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) secs = secs * 10 + (s[i++] - '0');
  if (i == 0) return std::nullopt;
  int64_t ms = 0, scale = 100;
  if (i < s.size() && s[i] == '.') {
    for (++i; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i, scale /= 10)
      ms += (s[i] - '0') * scale;
  }
  if (i != s.size()) return std::nullopt;
  return secs * 1000 + ms;
}

}  // namespace

std::optional<int64_t> LogClockMs(std::string_view s) {
  size_t i = 0;
  auto y = Digits(s, &i, 4);
  if (!y || !Expect(s, &i, '-')) return EpochMs(s);
  auto mo = Digits(s, &i, 2);
  if (!mo || !Expect(s, &i, '-')) return std::nullopt;
  auto d = Digits(s, &i, 2);
  if (!d || !(Expect(s, &i, ' ') || Expect(s, &i, 'T'))) return std::nullopt;
  auto h = Digits(s, &i, 2);
  if (!h || !Expect(s, &i, ':')) return std::nullopt;
  auto mi = Digits(s, &i, 2);
  if (!mi || !Expect(s, &i, ':')) return std::nullopt;
  auto sec = Digits(s, &i, 2);
  if (!sec || *mo < 1 || *mo > 12 || *d < 1 || *d > 31) return std::nullopt;
  int64_t ms = 0;
  if (Expect(s, &i, '.')) {
    for (int64_t scale = 100; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i, scale /= 10)
      ms += (s[i] - '0') * scale;
  }
  int64_t days = DaysFromCivil(*y, unsigned(*mo), unsigned(*d));
  return ((days * 24 + *h) * 60 + *mi) * 60000 + int64_t(*sec) * 1000 + ms;
}

}  // namespace lockgraph
