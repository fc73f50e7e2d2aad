// See timestamp.h.
#include "text/timestamp.h"

#include "text/number.h"
#include "text/number_text.h"

namespace lockgraph {
namespace {

bool IsAlpha(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

/// A cursor over the text; every reader moves only on success.
struct Cursor {
  std::string_view s;
  size_t i = 0;

  bool Done() const { return i == s.size(); }
  bool Take(char c) {
    if (i >= s.size() || s[i] != c) return false;
    ++i;
    return true;
  }
  /// Exactly `n` digits.
  std::optional<int> Digits(size_t n) {
    if (i + n > s.size()) return std::nullopt;
    int v = 0;
    for (size_t k = 0; k < n; ++k) {
      if (!IsDigit(s[i + k])) return std::nullopt;
      v = v * 10 + (s[i + k] - '0');
    }
    i += n;
    return v;
  }
  /// One or two digits ("6" in InnoDB's space-padded " 6:03:32").
  std::optional<int> ShortNumber() {
    if (i >= s.size() || !IsDigit(s[i])) return std::nullopt;
    int v = s[i++] - '0';
    if (i < s.size() && IsDigit(s[i])) v = v * 10 + (s[i++] - '0');
    return v;
  }
};

bool ValidDate(const CivilTime& t) {
  return t.month >= 1 && t.month <= 12 && t.day >= 1 && t.day <= 31 && t.hour <= 24 &&
         t.minute <= 59 && t.second <= 60;
}

/// ".504" -> micros and digits; more than six digits are read, not kept.
void ReadFraction(Cursor* c, CivilTime* t) {
  if (!c->Take('.') && !c->Take(',')) return;
  int64_t scale = 100000;
  while (!c->Done() && IsDigit(c->s[c->i])) {
    if (t->fraction_digits < 6) {
      t->micros += (c->s[c->i] - '0') * scale;
      scale /= 10;
      ++t->fraction_digits;
    }
    ++c->i;
  }
}

/// "Z", "+00", "-05:30", "+0530", "UTC", "CEST": the rest of the text.
bool ReadZone(Cursor* c, CivilTime* t) {
  if (c->Done()) return true;
  if (c->s.substr(c->i) == "Z") {
    t->offset_minutes = 0;
    return true;
  }
  char sign = c->s[c->i];
  if (sign == '+' || sign == '-') {
    ++c->i;
    auto hh = c->Digits(2);
    if (!hh) return false;
    int mm = 0;
    if (!c->Done()) {
      c->Take(':');
      auto m = c->Digits(2);
      if (!m) return false;
      mm = *m;
    }
    if (!c->Done() || *hh > 15 || mm > 59) return false;
    t->offset_minutes = (sign == '-' ? -1 : 1) * (*hh * 60 + mm);
    return true;
  }
  std::string_view rest = c->s.substr(c->i);
  if (rest.size() < 2 || rest.size() > 6) return false;
  for (char ch : rest)
    if (!IsAlpha(ch)) return false;
  t->zone = std::string(rest);
  if (t->zone == "UTC" || t->zone == "GMT") t->offset_minutes = 0;
  c->i = c->s.size();
  return true;
}

/// "HH:MM:SS[.f]" after the date.
bool ReadClock(Cursor* c, CivilTime* t) {
  auto h = c->ShortNumber();
  if (!h || !c->Take(':')) return false;
  auto mi = c->Digits(2);
  if (!mi || !c->Take(':')) return false;
  auto sec = c->Digits(2);
  if (!sec) return false;
  t->hour = *h, t->minute = *mi, t->second = *sec;
  ReadFraction(c, t);
  return true;
}

std::optional<CivilTime> Epoch(std::string_view s) {
  Cursor c{s};
  int64_t secs = 0;
  size_t digits = 0;
  while (!c.Done() && IsDigit(s[c.i]) && digits < 12) secs = secs * 10 + (s[c.i++] - '0'), ++digits;
  if (digits < 9) return std::nullopt;  // not a plausible epoch
  CivilTime frac;
  ReadFraction(&c, &frac);
  if (!c.Done()) return std::nullopt;
  CivilTime t = CivilFromMicros(secs * 1000000 + frac.micros, frac.fraction_digits);
  t.epoch = true;
  t.offset_minutes = 0;
  return t;
}

/// InnoDB's "111212 22:52:42" and "120906  6:03:32" (YYMMDD, local time).
std::optional<CivilTime> ShortDate(Cursor c) {
  CivilTime t;
  auto yy = c.Digits(2), mo = c.Digits(2), d = c.Digits(2);
  if (!yy || !mo || !d || !c.Take(' ')) return std::nullopt;
  c.Take(' ');
  t.year = *yy < 70 ? 2000 + *yy : 1900 + *yy;
  t.month = *mo, t.day = *d;
  if (!ReadClock(&c, &t) || !c.Done() || !ValidDate(t)) return std::nullopt;
  return t;
}

}  // namespace

int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  // Howard Hinnant's days_from_civil.
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

int64_t WallMicros(const CivilTime& t) {
  int64_t days = DaysFromCivil(t.year, unsigned(t.month), unsigned(t.day));
  return (((days * 24 + t.hour) * 60 + t.minute) * 60 + t.second) * 1000000 + t.micros;
}

CivilTime CivilFromMicros(int64_t micros, int fraction_digits) {
  int64_t secs = micros >= 0 ? micros / 1000000 : (micros - 999999) / 1000000;
  CivilTime t;
  t.micros = micros - secs * 1000000;
  t.fraction_digits = fraction_digits;
  int64_t z = (secs >= 0 ? secs : secs - 86399) / 86400;
  int64_t sod = secs - z * 86400;
  t.hour = int(sod / 3600), t.minute = int(sod / 60 % 60), t.second = int(sod % 60);
  // Howard Hinnant's civil_from_days.
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  t.day = int(doy - (153 * mp + 2) / 5 + 1);
  t.month = int(mp < 10 ? mp + 3 : mp - 9);
  t.year = int(int64_t(yoe) + era * 400 + (t.month <= 2));
  return t;
}

std::optional<CivilTime> ParseTimestamp(std::string_view s) {
  Cursor c{s};
  CivilTime t;
  auto y = c.Digits(4);
  if (!y || !c.Take('-')) {
    if (auto e = Epoch(s)) return e;
    return ShortDate(Cursor{s});
  }
  auto mo = c.Digits(2);
  if (!mo || !c.Take('-')) return std::nullopt;
  auto d = c.Digits(2);
  if (!d || !(c.Take(' ') || c.Take('T'))) return std::nullopt;
  t.year = *y, t.month = *mo, t.day = *d;
  if (!ReadClock(&c, &t) || !ValidDate(t)) return std::nullopt;
  c.Take(' ');
  if (!ReadZone(&c, &t)) return std::nullopt;
  return t;
}

std::string PlainTime(const CivilTime& t) {
  // printf's "%04d-%02d-%02d %02d:%02d:%02d" and "%06lld", by hand: this
  // runs for every event's time, and snprintf cost 1,900 instructions a call.
  std::string out;
  out.reserve(32);
  AppendZeroPadded(&out, t.year, 4);
  out += '-';
  AppendZeroPadded(&out, t.month, 2);
  out += '-';
  AppendZeroPadded(&out, t.day, 2);
  out += ' ';
  AppendZeroPadded(&out, t.hour, 2);
  out += ':';
  AppendZeroPadded(&out, t.minute, 2);
  out += ':';
  AppendZeroPadded(&out, t.second, 2);
  if (t.fraction_digits > 0) {
    std::string micros;
    AppendZeroPadded(&micros, t.micros, 6);
    out += '.';
    out.append(micros, 0, size_t(t.fraction_digits));
  }
  return out;
}

std::string IsoTime(const CivilTime& t, int offset_minutes) {
  std::string out = PlainTime(t);
  out[10] = 'T';
  const int a = offset_minutes < 0 ? -offset_minutes : offset_minutes;
  out += offset_minutes < 0 ? '-' : '+';
  AppendZeroPadded(&out, a / 60, 2);
  out += ':';
  AppendZeroPadded(&out, a % 60, 2);
  return out;
}

}  // namespace lockgraph
