// Numbers written as printf writes them, without printf: "%0Nd" and
// "%.Nf". These run for every event's times and durations, where
// snprintf cost about 1,900 instructions a call. No locale (printf's "C").
#pragma once

#include <charconv>
#include <cstdint>
#include <string>

namespace lockgraph {

/// Appends `value` as printf's "%0*lld" with `width` would: at least
/// `width` characters, zeros after the sign ("-005" for -5, width 4).
inline void AppendZeroPadded(std::string* out, long long value, int width) {
  char digits[24];
  const unsigned long long magnitude =
      value < 0 ? 0ull - static_cast<unsigned long long>(value) : static_cast<unsigned long long>(value);
  const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, magnitude);
  (void)ec;  // 24 bytes hold any 64-bit number
  const int count = int(end - digits);
  if (value < 0) *out += '-';
  const int pad = width - count - (value < 0 ? 1 : 0);
  if (pad > 0) out->append(size_t(pad), '0');
  out->append(digits, end);
}

/// Appends `value` as printf's "%.*f" with `decimals` would (correctly
/// rounded, as glibc's printf; "inf" and "nan" as it writes them).
inline void AppendFixed(std::string* out, double value, int decimals) {
  char buf[400];  // the longest double in fixed notation, with its decimals
  const auto [end, ec] =
      std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, decimals);
  if (ec == std::errc()) out->append(buf, end);
}

}  // namespace lockgraph
