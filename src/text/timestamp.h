// Reads the timestamps database logs write into their parts, without
// deciding what the zone means: PostgreSQL's %m/%t/%n, csvlog and jsonlog
// ("2026-12-02 10:15:19.504 UTC", "... CET", "... +03", "1733134519.504"),
// pg_locks snapshots ("2026-12-02 11:49:21.416406+00"), ISO 8601 (SQL
// Server's "2022-02-18T08:26:24.698Z", MySQL 8's "...123456+02:00"), MariaDB
// and InnoDB ("2026-12-03 13:33:12", "111212 22:52:42", "120906  6:03:32").
// analysis/event_time.h resolves the zone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lockgraph {

/// A wall-clock time as written.
struct CivilTime {
  int year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0;
  int64_t micros = 0;        // the fraction, in microseconds
  int fraction_digits = 0;   // as written (0: none), at most 6 kept
  /// Written as a number ("Z", "+00", "-05:30", "+0530", or an epoch).
  std::optional<int> offset_minutes;
  std::string zone;          // written as a name ("UTC", "CET", "MSK"), else empty
  bool epoch = false;        // written as seconds since 1970 (%n): UTC
};

/// The parts of `text`, or nullopt when it is none of the forms above.
std::optional<CivilTime> ParseTimestamp(std::string_view text);

/// Days since 1970-01-01 of a proleptic Gregorian date.
int64_t DaysFromCivil(int64_t year, unsigned month, unsigned day);

/// Microseconds since 1970-01-01 00:00 of the wall time, zone ignored.
int64_t WallMicros(const CivilTime& t);

/// The civil time, in UTC, of microseconds since 1970.
CivilTime CivilFromMicros(int64_t micros, int fraction_digits);

/// "2026-12-02T10:15:19.504+01:00": the wall time as written, with the
/// fraction's digits as written, and `offset_minutes`.
std::string IsoTime(const CivilTime& t, int offset_minutes);

/// "2026-12-02 10:15:19.504": the wall time as written, without a zone.
std::string PlainTime(const CivilTime& t);

}  // namespace lockgraph
